import { eq, sql } from 'drizzle-orm'
import {
  leadManagementDefaults,
  type SaveSettingsInput,
  type Settings,
} from '../../../shared/schemas/settings'
import type { AppDb, Tx } from '../../db/client'
import { user as users } from '../../db/schema/auth'
import { hospitals } from '../../db/schema/hospitals'
import { leadSettings } from '../../db/schema/leads'
import { hospitalSettings, hospitalSettingsDefaults } from '../../db/schema/settings'
import { withPlatform } from '../../db/tenant'
import { sessionHoursAboveLimit } from '../../auth/hospital-policy'
import { AppError, notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import {
  answeringSlugClash,
  applyHospitalSettings,
  readSettings as readHospital,
} from '../hospital-settings/hospital-settings.service'
import { applyNotifications, readNotifications } from '../messaging-settings/notifications.service'
import { refreshContactLimitFlags } from '../leads/contact-limit'
import { can } from '../../../shared/permissions'
import type { ActingRole } from '../../../shared/roles'
import { permissionRefusal } from '../../auth/access'

export interface SettingsOptions {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
  /** The role the request acts as: the security section needs security:manage (issue 39). */
  actingRole?: ActingRole | undefined
}

const profileColumns = {
  currency: hospitals.currency,
  address: hospitals.address,
  phone: hospitals.phone,
  email: hospitals.email,
}
type Profile = { currency: string; address: string | null; phone: string | null; email: string }

/** From here on the transaction runs as app_user with the hospital set: RLS scopes the rest. */
async function enterTenant(tx: Tx, hospitalId: string): Promise<void> {
  await tx.execute(
    sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${hospitalId}, true)`,
  )
}

async function readProfile(tx: Tx, hospitalId: string): Promise<Profile> {
  const [row] = await tx.select(profileColumns).from(hospitals).where(eq(hospitals.id, hospitalId))
  if (!row) throw notFound('Hospital')
  return row
}

/** The tenant sections (the transaction already runs as app_user for this hospital). */
async function readTenantSections(tx: Tx) {
  const [hs] = await tx.select().from(hospitalSettings)
  const [ls] = await tx.select().from(leadSettings)
  const n = await readNotifications(tx)
  const notifications = {
    emailEnabled: n.emailEnabled,
    smsEnabled: n.smsEnabled,
    pushEnabled: n.pushEnabled,
    appointmentReminders: n.appointmentReminders,
    quietHoursStart: n.quietHoursStart,
    quietHoursEnd: n.quietHoursEnd,
  }
  const h = hs ?? hospitalSettingsDefaults
  return {
    region: h.region,
    leadManagement: {
      autoAssignLeads: ls?.autoAssignLeads ?? leadManagementDefaults.autoAssignLeads,
      priorityScoring: ls?.priorityScoring ?? leadManagementDefaults.priorityScoring,
      followUpDays: ls?.followUpDays ?? leadManagementDefaults.followUpDays,
      maxContactAttempts: ls?.maxContactAttempts ?? leadManagementDefaults.maxContactAttempts,
    },
    notifications,
    security: {
      requireTwoFactor: h.requireTwoFactor,
      sessionTimeout: h.sessionTimeout,
      sessionHours: h.sessionHours,
    },
    data: { autoBackups: h.autoBackups, backupRetentionDays: h.backupRetentionDays },
  }
}

async function readAll(tx: Tx, hospitalId: string): Promise<Settings> {
  const hospital = await readHospital(tx, hospitalId)
  const profile = await readProfile(tx, hospitalId)
  await enterTenant(tx, hospitalId)
  const { region, ...rest } = await readTenantSections(tx)
  return { general: { ...hospital, ...profile, region }, ...rest }
}

/** GET /api/settings: any member of the hospital. */
export async function getSettings(opts: SettingsOptions): Promise<Settings> {
  return withPlatform(opts.db, (tx) => readAll(tx, opts.hospitalId))
}

/** A check of the older services answers bare paths ('gstin'): here they sit in a section. */
async function inSection<T>(section: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'VALIDATION' || !error.issues) throw error
    const issues = error.issues.map((i) => ({ ...i, path: `${section}.${i.path}` }))
    const first = issues[0]
    throw new AppError(
      'VALIDATION',
      first ? `Invalid input: ${first.path}: ${first.message}` : error.message,
      issues,
    )
  }
}

const defined = <T extends object>(o: T | undefined): Partial<T> =>
  Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>

const changedKeys = (section: string, next: object, before: object): string[] =>
  Object.entries(next)
    .filter(
      ([k, v]) => JSON.stringify(v) !== JSON.stringify((before as Record<string, unknown>)[k]),
    )
    .map(([k]) => `${section}.${k}`)

export const OWN_TWO_FACTOR_FIRST =
  'Set up two-factor for your own account first (Settings → Security), or you would be locked out'

/**
 * Requiring two-factor of every member while the admin saving it has none would send that admin
 * to enrolment on their next request: refused with a 400 on the switch, unless it is already on.
 */
function checkOwnTwoFactor(ownTwoFactor: boolean, alreadyRequired: boolean): void {
  if (ownTwoFactor || alreadyRequired) return
  throw new AppError(
    'VALIDATION',
    `Invalid input: security.requireTwoFactor: ${OWN_TWO_FACTOR_FIRST}`,
    [{ path: 'security.requireTwoFactor', message: OWN_TWO_FACTOR_FIRST }],
  )
}

/**
 * The security section (two-factor requirement, session limits) needs security:manage: a
 * support visit may save every other section, and this one unchanged, but never change it.
 */
function refuseSecurityChange(
  role: ActingRole | undefined,
  next: SaveSettingsInput['security'],
  before: object,
): void {
  if (!role || can(role, 'security:manage')) return
  if (changedKeys('security', defined(next), before).length)
    throw permissionRefusal(role, 'security:manage')
}

/** Issue 39: a hospital shortens sessions below the operator's limit, never lengthens them. */
function refuseLongerSessions(hours: number | undefined, limit: number | undefined): void {
  if (hours === undefined || limit === undefined || hours <= limit) return
  const message = sessionHoursAboveLimit(limit)
  throw new AppError('VALIDATION', message, [{ path: 'security.sessionHours', message }])
}

/**
 * PUT /api/settings (hospital:manage). One transaction: the hospital's row (locked while it
 * is checked), then as app_user the tenant rows (upserted: no row means the defaults), and
 * one audit row naming every key that changed. Sections and keys left out keep their value.
 */
export async function saveSettings(
  opts: SettingsOptions & {
    values: SaveSettingsInput
    /** The operator's SESSION_HOURS: a hospital's session duration may not exceed it. */
    maxSessionHours?: number
  },
): Promise<Settings> {
  const { hospitalId } = opts
  const { currency, address, phone, email, region, ...hospitalValues } = opts.values.general ?? {}
  return answeringSlugClash(() =>
    withPlatform(opts.db, async (tx) => {
      const changed: string[] = []
      const requiring = opts.values.security?.requireTwoFactor === true
      const [me] = requiring
        ? await tx
            .select({ on: users.twoFactorEnabled })
            .from(users)
            .where(eq(users.id, opts.userId))
        : []
      const hospital = await inSection('general', () =>
        applyHospitalSettings(tx, hospitalId, hospitalValues),
      )
      changed.push(...hospital.changed.map((k) => `general.${k}`))
      const profile = defined<Profile>({ currency, address, phone, email } as Profile)
      const profileBefore = await readProfile(tx, hospitalId)
      const profileChanged = changedKeys('general', profile, profileBefore)
      if (profileChanged.length) {
        await tx
          .update(hospitals)
          .set({ ...profile, updatedAt: new Date() })
          .where(eq(hospitals.id, hospitalId))
        changed.push(...profileChanged)
      }
      await enterTenant(tx, hospitalId)
      const before = await readTenantSections(tx)
      if (requiring) checkOwnTwoFactor(me?.on === true, before.security.requireTwoFactor)
      refuseSecurityChange(opts.actingRole, opts.values.security, before.security)
      refuseLongerSessions(opts.values.security?.sessionHours, opts.maxSessionHours)

      const hs = {
        ...defined({ region }),
        ...defined(opts.values.security),
        ...defined(opts.values.data),
      }
      if (Object.keys(hs).length) {
        const row = { ...before.security, ...before.data, region: before.region, ...hs }
        await tx
          .insert(hospitalSettings)
          .values({ hospitalId, ...row, updatedBy: opts.userId })
          .onConflictDoUpdate({
            target: hospitalSettings.hospitalId,
            set: { ...hs, updatedAt: new Date(), updatedBy: opts.userId },
          })
        if (region !== undefined) changed.push(...changedKeys('general', { region }, before))
        changed.push(...changedKeys('security', defined(opts.values.security), before.security))
        changed.push(...changedKeys('data', defined(opts.values.data), before.data))
      }

      const lm = defined(opts.values.leadManagement)
      if (Object.keys(lm).length) {
        await tx
          .insert(leadSettings)
          .values({ hospitalId, ...before.leadManagement, ...lm })
          .onConflictDoUpdate({ target: leadSettings.hospitalId, set: lm })
        if (lm.maxContactAttempts !== undefined) await refreshContactLimitFlags(tx)
        changed.push(...changedKeys('leadManagement', lm, before.leadManagement))
      }

      const notifications = defined(opts.values.notifications)
      if (Object.keys(notifications).length) {
        const keys = await inSection('notifications', () =>
          applyNotifications(tx, hospitalId, notifications),
        )
        changed.push(...keys.map((k) => `notifications.${k}`))
      }

      await recordAudit(tx, {
        hospitalId,
        actorUserId: opts.userId,
        impersonatorUserId: opts.impersonatorUserId,
        action: 'settings.saved',
        entityType: 'hospital_settings',
        entityId: hospitalId,
        summary: `Settings saved (${changed.join(', ') || 'no changes'})`,
      })
      const { region: savedRegion, ...rest } = await readTenantSections(tx)
      return {
        general: { ...hospital.next, ...profileBefore, ...profile, region: savedRegion },
        ...rest,
      }
    }),
  )
}
