import { and, asc, count, eq, gt, ilike, or, type SQL, sql } from 'drizzle-orm'
import { type Patient, splitName } from '../../../shared/schemas/patients'
import type { AppDb } from '../../db/client'
import { patients } from '../../db/schema/patients'
import { withPlatform, withTenant } from '../../db/tenant'
import { hospitals } from '../../db/schema/hospitals'
import { AppError, notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'

type PatientRow = typeof patients.$inferSelect
type PatientValues = Omit<
  typeof patients.$inferInsert,
  'hospitalId' | 'id' | 'createdAt' | 'updatedAt'
>

export interface TenantOptions {
  db: AppDb
  hospitalId: string
  userId: string
  /** Set when the session is an impersonation: the administrator behind it. */
  impersonatorUserId?: string | null | undefined
}

export function toPatient(row: PatientRow): Patient {
  return {
    ...row,
    ...splitName(row.name),
    gender: row.gender ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

/** LIKE pattern that matches the text literally anywhere. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

function searchCondition(search: string): SQL | undefined {
  const pattern = containsPattern(search)
  const conditions: SQL[] = [ilike(patients.name, pattern), ilike(patients.email, pattern)]
  // Phones are stored as E.164; '98765 43210' and '098765' still match by their digits.
  const digits = search.replace(/\D/g, '')
  const phoneNeedle =
    /^[\d\s()+.-]+$/.test(search) && digits.length > 0
      ? digits.replace(/^0+/, '') || digits
      : search
  conditions.push(sql`${patients.phone} like ${containsPattern(phoneNeedle)}`)
  return or(...conditions)
}

/**
 * A page cursor is the id of the page's last patient, nothing else: it travels in URLs and
 * logs, so it must not carry the patient's name. The name to continue from is read again,
 * under RLS, inside the page's own transaction.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function decodeCursor(cursor: string): string {
  if (UUID.test(cursor)) return cursor.toLowerCase()
  throw new AppError('VALIDATION', 'Invalid input: cursor is not valid', [
    { path: 'cursor', message: 'cursor is not valid' },
  ])
}

// Both orders are by name, then id. With a search the name is sorted as an expression, so
// the planner finds the matches through the trigram indexes and sorts only those, rather
// than walking the whole hospital in name order hoping to meet enough matches early.
const listOrder = [asc(patients.name), asc(patients.id)]
const searchOrder = [sql`${patients.name} || ''`, asc(patients.id)]

export const DEFAULT_PAGE_SIZE = 100

/** A page of the hospital's patients ordered by name, optionally filtered by a search text. */
export async function listPatients(
  opts: TenantOptions & {
    search?: string | undefined
    limit?: number | undefined
    cursor?: string | undefined
  },
): Promise<{ items: Patient[]; nextCursor: string | null }> {
  const limit = opts.limit ?? DEFAULT_PAGE_SIZE
  const afterId = opts.cursor ? decodeCursor(opts.cursor) : null
  const rows = await withTenant(opts.db, opts, async (tx) => {
    const conditions: (SQL | undefined)[] = []
    if (opts.search) conditions.push(searchCondition(opts.search))
    if (afterId) {
      const [after] = await tx
        .select({ name: patients.name })
        .from(patients)
        .where(eq(patients.id, afterId))
      // A cursor naming no patient of this hospital ends the list.
      if (!after) return []
      conditions.push(
        or(
          gt(patients.name, after.name),
          and(eq(patients.name, after.name), gt(patients.id, afterId)),
        ),
      )
    }
    return tx
      .select()
      .from(patients)
      .where(and(...conditions))
      .orderBy(...(opts.search ? searchOrder : listOrder))
      .limit(limit + 1)
  })
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    items: page.map(toPatient),
    nextCursor: rows.length > limit && last ? last.id : null,
  }
}

export async function getPatient(opts: TenantOptions & { id: string }): Promise<Patient> {
  const [row] = await withTenant(opts.db, opts, (tx) =>
    tx.select().from(patients).where(eq(patients.id, opts.id)),
  )
  if (!row) throw notFound('Patient')
  return toPatient(row)
}

/** The hospital's plan limit on patients (null: unlimited). */
async function patientLimit(db: AppDb, hospitalId: string): Promise<number | null> {
  const [row] = await withPlatform(db, (tx) =>
    tx.select({ max: hospitals.maxPatients }).from(hospitals).where(eq(hospitals.id, hospitalId)),
  )
  return row?.max ?? null
}

export async function createPatient(
  opts: TenantOptions & { values: PatientValues },
): Promise<Patient> {
  const limit = await patientLimit(opts.db, opts.hospitalId)
  return withTenant(opts.db, opts, async (tx) => {
    if (limit !== null) {
      // Serialise concurrent adds in this hospital so two cannot both take the last place.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${opts.hospitalId}))`)
      const [current] = await tx.select({ n: count() }).from(patients)
      if ((current?.n ?? 0) >= limit) {
        throw new AppError(
          'CONFLICT',
          `Your plan allows up to ${limit.toLocaleString('en-IN')} patients. Upgrade your plan to add more.`,
        )
      }
    }
    const [row] = await tx
      .insert(patients)
      .values({ ...opts.values, hospitalId: opts.hospitalId })
      .returning()
    if (!row) throw new AppError('INTERNAL', 'Patient was not saved')
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'patient.created',
      entityType: 'patient',
      entityId: row.id,
      summary: `Added patient ${row.name}`,
    })
    return toPatient(row)
  })
}

export async function updatePatient(
  opts: TenantOptions & { id: string; values: Partial<PatientValues> },
): Promise<Patient> {
  return withTenant(opts.db, opts, async (tx) => {
    const [row] = await tx
      .update(patients)
      .set({ ...opts.values, updatedAt: new Date() })
      .where(eq(patients.id, opts.id))
      .returning()
    if (!row) throw notFound('Patient')
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'patient.updated',
      entityType: 'patient',
      entityId: row.id,
      summary: `Updated ${Object.keys(opts.values).join(', ')} of patient ${row.name}`,
    })
    return toPatient(row)
  })
}
