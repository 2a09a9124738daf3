import { and, asc, count, desc, eq, gt, ilike, ne, or, type SQL, sql } from 'drizzle-orm'
import {
  PHONE_MATCHES_SHOWN,
  type PatientSort,
  type PhoneMatches,
} from '../../../shared/schemas/patients'
import type { Tx } from '../../db/client'
import { patients } from '../../db/schema/patients'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import type { TenantOptions } from './patients.service'

/** LIKE pattern that matches the text literally anywhere. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

export function searchCondition(search: string): SQL | undefined {
  const pattern = containsPattern(search)
  const conditions: SQL[] = [
    ilike(patients.name, pattern),
    ilike(patients.email, pattern),
    // The number as shown ('SMH-000012', any case) or any part of it ('000012').
    ilike(patients.patientNumber, pattern),
  ]
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
 * logs, so it must not carry the patient's name. The sort key to continue from is read again,
 * under RLS, inside the page's own transaction.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function decodeCursor(cursor: string): string {
  if (UUID.test(cursor)) return cursor.toLowerCase()
  throw new AppError('VALIDATION', 'Invalid input: cursor is not valid', [
    { path: 'cursor', message: 'cursor is not valid' },
  ])
}

// Without a search each order walks its b-tree index: (hospital_id, name, id) or
// (hospital_id, created_at desc, id desc). With a search the first key is sorted as an
// expression, so the planner finds the matches through the trigram indexes and sorts only
// those, rather than walking the whole hospital in order hoping to meet matches early (004).
export const orders: Record<PatientSort, { plain: SQL[]; searched: SQL[] }> = {
  name: {
    plain: [asc(patients.name), asc(patients.id)],
    searched: [sql`${patients.name} || ''`, asc(patients.id)],
  },
  recent: {
    plain: [desc(patients.createdAt), desc(patients.id)],
    searched: [sql`${patients.createdAt} + interval '0 seconds' desc`, desc(patients.id)],
  },
}

/** The condition for rows after the cursor's patient in this order; null if there is none. */
export async function afterCursor(tx: Tx, sort: PatientSort, afterId: string): Promise<SQL | null> {
  const [anchor] = await tx
    .select({ name: patients.name })
    .from(patients)
    .where(eq(patients.id, afterId))
  if (!anchor) return null
  if (sort === 'name') {
    return or(
      gt(patients.name, anchor.name),
      and(eq(patients.name, anchor.name), gt(patients.id, afterId)),
    ) as SQL
  }
  // created_at is compared in SQL: a JavaScript Date would drop its microseconds.
  return sql`(${patients.createdAt}, ${patients.id}) < (select p.created_at, p.id from ${patients} p where p.id = ${afterId})`
}

/** Patients of the hospital with exactly this (E.164) phone: how many, and the newest few. */
export async function findPhoneMatches(
  opts: TenantOptions & { phone: string; excludeId?: string | undefined },
): Promise<PhoneMatches> {
  return withTenant(opts.db, opts, async (tx) => {
    const where = and(
      eq(patients.phone, opts.phone),
      opts.excludeId ? ne(patients.id, opts.excludeId) : undefined,
    )
    const shown = await tx
      .select({
        id: patients.id,
        name: patients.name,
        patientNumber: patients.patientNumber,
        phone: patients.phone,
      })
      .from(patients)
      .where(where)
      .orderBy(desc(patients.createdAt), desc(patients.id))
      .limit(PHONE_MATCHES_SHOWN)
    const [counted] = await tx.select({ n: count() }).from(patients).where(where)
    return { count: counted?.n ?? 0, patients: shown }
  })
}
