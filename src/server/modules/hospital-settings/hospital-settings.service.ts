import { and, eq, ne, sql } from 'drizzle-orm'
import { DEFAULT_TIME_ZONE } from '../../../shared/dates'
import {
  GSTIN_STATE_MESSAGE,
  type HospitalSettings,
  SLUG_TAKEN_MESSAGE,
  type UpdateHospitalSettingsInput,
} from '../../../shared/schemas/hospital-settings'
import { defaultReminderOffsets, defaultWorkingHours } from '../../../shared/scheduling'
import type { AppDb, Tx } from '../../db/client'
import { hospitals } from '../../db/schema/hospitals'
import { withPlatform } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'

export interface SettingsOptions {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
}

const settingsColumns = {
  name: hospitals.name,
  timeZone: hospitals.timeZone,
  slug: hospitals.slug,
  gstin: hospitals.gstin,
  stateCode: hospitals.stateCode,
  upiId: hospitals.upiId,
  invoicePrefix: hospitals.invoicePrefix,
  workingHours: hospitals.workingHours,
  reminderOffsets: hospitals.reminderOffsets,
  grievanceName: hospitals.grievanceName,
  grievanceEmail: hospitals.grievanceEmail,
}

type SettingsRow = {
  [K in keyof typeof settingsColumns]: (typeof settingsColumns)[K]['_']['data'] | null
}

function toSettings(row: SettingsRow): HospitalSettings {
  return {
    name: row.name ?? '',
    timeZone: row.timeZone ?? DEFAULT_TIME_ZONE,
    // Set by the hospitals_assign_defaults trigger (drizzle/0017) for every hospital.
    slug: row.slug ?? '',
    gstin: row.gstin,
    stateCode: row.stateCode,
    upiId: row.upiId,
    invoicePrefix: row.invoicePrefix ?? '',
    workingHours: row.workingHours ?? defaultWorkingHours,
    reminderOffsets: row.reminderOffsets ?? [...defaultReminderOffsets],
    grievanceName: row.grievanceName,
    grievanceEmail: row.grievanceEmail,
  }
}

/** The hospital's settings row (hospitals is a platform table, narrowed to the member's own). */
export async function readSettings(
  tx: Tx,
  hospitalId: string,
  lock = false,
): Promise<HospitalSettings> {
  const query = tx.select(settingsColumns).from(hospitals).where(eq(hospitals.id, hospitalId))
  const [row] = lock ? await query.for('update') : await query
  if (!row) throw notFound('Hospital')
  return toSettings(row)
}

/** GET /api/hospital/settings: any member of the hospital. */
export async function getHospitalSettings(opts: SettingsOptions): Promise<HospitalSettings> {
  return withPlatform(opts.db, (tx) => readSettings(tx, opts.hospitalId))
}

/** The GSTIN must start with the state code when both are set (after this change). */
function checkGstinState(next: HospitalSettings, values: UpdateHospitalSettingsInput): void {
  if (!next.gstin || !next.stateCode || next.gstin.slice(0, 2) === next.stateCode) return
  const path = values.gstin !== undefined ? 'gstin' : 'stateCode'
  const message =
    path === 'gstin' ? GSTIN_STATE_MESSAGE : 'The state must match the first 2 digits of the GSTIN'
  throw new AppError('VALIDATION', `Invalid input: ${path}: ${message}`, [{ path, message }])
}

const slugTaken = () =>
  new AppError('CONFLICT', SLUG_TAKEN_MESSAGE, [{ path: 'slug', message: SLUG_TAKEN_MESSAGE }])

/** PostgreSQL's unique violation of the booking slug (a concurrent save took it first). */
function isSlugClash(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    const { code, constraint, message } = e as {
      code?: unknown
      constraint?: unknown
      message?: unknown
    }
    if (code === '23505')
      return constraint === 'hospitals_slug_idx' || /hospitals_slug_idx/.test(String(message))
    e = (e as { cause?: unknown }).cause
  }
  return false
}

/**
 * Applies a partial change to the hospital's settings row inside the caller's platform
 * transaction: the row is locked while it is checked and changed. PATCH /api/hospital/settings
 * and PUT /api/settings (issue 27) both save through here.
 */
export async function applyHospitalSettings(
  tx: Tx,
  hospitalId: string,
  values: UpdateHospitalSettingsInput,
): Promise<{ next: HospitalSettings; changed: (keyof HospitalSettings)[] }> {
  const before = await readSettings(tx, hospitalId, true)
  const set = Object.fromEntries(
    Object.entries(values).filter(([, v]) => v !== undefined),
  ) as Partial<HospitalSettings>
  const next: HospitalSettings = { ...before, ...set }
  checkGstinState(next, values)
  if (set.slug !== undefined && set.slug !== before.slug) {
    const [other] = await tx
      .select({ id: hospitals.id })
      .from(hospitals)
      .where(and(eq(hospitals.slug, set.slug), ne(hospitals.id, hospitalId)))
    if (other) throw slugTaken()
  }
  const changed = (Object.keys(set) as (keyof HospitalSettings)[]).filter(
    (k) => JSON.stringify(set[k]) !== JSON.stringify(before[k]),
  )
  if (changed.length) {
    await tx
      .update(hospitals)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(hospitals.id, hospitalId))
  }
  return { next, changed }
}

/** Runs a save that may take a booking link a concurrent save took first: a 409, not a 500. */
export async function answeringSlugClash<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    if (isSlugClash(error)) throw slugTaken()
    throw error
  }
}

/**
 * PATCH /api/hospital/settings (hospital:manage). Fields left out keep their value. The row
 * is locked while it is checked and changed, and the audit row goes in the same transaction
 * (as app_user with the hospital set, so RLS checks it like any tenant write).
 */
export async function updateHospitalSettings(
  opts: SettingsOptions & { values: UpdateHospitalSettingsInput },
): Promise<HospitalSettings> {
  return answeringSlugClash(() =>
    withPlatform(opts.db, async (tx) => {
      const { next, changed } = await applyHospitalSettings(tx, opts.hospitalId, opts.values)
      await tx.execute(
        sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${opts.hospitalId}, true)`,
      )
      await recordAudit(tx, {
        hospitalId: opts.hospitalId,
        actorUserId: opts.userId,
        impersonatorUserId: opts.impersonatorUserId,
        action: 'hospital.settings_saved',
        entityType: 'hospital',
        entityId: opts.hospitalId,
        summary: `Hospital settings saved (${changed.join(', ') || 'no changes'})`,
      })
      return next
    }),
  )
}
