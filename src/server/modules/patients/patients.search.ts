import { and, asc, count, desc, eq, ne, or, type SQL, sql } from 'drizzle-orm'
import { getCountryCallingCode } from 'libphonenumber-js/max'
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

/** Numbers typed without a country code are Indian (shared/phone.ts reads them so). */
const HOME_CALLING_CODE = getCountryCallingCode('IN')
/** Text that can only be (part of) a phone number or a patient number's digits. */
const PHONE_TEXT = /^[\d\s()+.-]+$/
/** Digits typed that match anywhere in a phone, not only at its start (issue 26). */
export const PHONE_RUN_MIN_DIGITS = 3

/**
 * What a search matches, each a prefix (docs/decisions/011): the name from any of its first
 * four words ('sharma', 'priya sh'), the email, the patient number ('SMH-0001', any case) or
 * its digits ('000123'), and, for text that looks like a phone, the phone's digits with or
 * without the country code ('98765 43210', '098765', '+91 98765'). Any letter case, spaces
 * collapsed. `^@` (starts_with) is LEAKPROOF and needs no escaping, so under RLS each becomes
 * a range of a text_pattern_ops index, and `%`, `_` or a backslash are just characters.
 *
 * Phone-like text with 3 or more digits also matches anywhere in the phone's digits (issue 26:
 * the last 4 digits of a mobile, '43210', '654-3210', '+91 98765 43210'), through the trigram
 * index of drizzle/0018 inside the hospital's range. The pattern holds only the digits typed,
 * so it has no wildcard or escape of its own, and the column is on the left (decision 004).
 */
export function searchCondition(search: string): SQL | undefined {
  const text = search.trim().replace(/\s+/g, ' ')
  if (!text) return undefined
  const lowered = sql`lower(${text})`
  const conditions: SQL[] = [
    sql`${patients.nameSearch} ^@ ${lowered}`,
    sql`${patients.nameSearch2} ^@ ${lowered}`,
    sql`${patients.nameSearch3} ^@ ${lowered}`,
    sql`${patients.nameSearch4} ^@ ${lowered}`,
    sql`${patients.email} ^@ ${lowered}`,
    sql`${patients.patientNumber} ^@ upper(${text})`,
  ]
  const digits = text.replace(/\D/g, '')
  if (PHONE_TEXT.test(text) && digits) {
    const national = digits.replace(/^0+/, '') || digits
    conditions.push(
      sql`${patients.numberDigits} ^@ ${digits}`,
      sql`${patients.phoneDigits} ^@ ${national}`,
      sql`${patients.phoneDigits} ^@ ${HOME_CALLING_CODE + national}`,
    )
    if (digits.length >= PHONE_RUN_MIN_DIGITS)
      conditions.push(sql`${patients.phoneDigits} like ${`%${digits}%`}`)
  }
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

// Each order is a b-tree index: (hospital_id, name, id) or (hospital_id, created_at desc,
// id desc). With a search the planner walks it and stops after a page when the prefix is
// common, or fetches the few matches by their prefix indexes and sorts them when it is rare:
// either way a page costs about the same (011).
export const orders: Record<PatientSort, SQL[]> = {
  name: [asc(patients.name), asc(patients.id)],
  recent: [desc(patients.createdAt), desc(patients.id)],
}

/**
 * Rows after the cursor's patient in this order, as one row comparison (an index condition);
 * null if the cursor names no patient of this hospital.
 */
export async function afterCursor(tx: Tx, sort: PatientSort, afterId: string): Promise<SQL | null> {
  const [anchor] = await tx
    .select({
      name: patients.name,
      // As text: a JavaScript Date would drop the microseconds.
      createdAt: sql<string>`${patients.createdAt}::text`,
    })
    .from(patients)
    .where(eq(patients.id, afterId))
  if (!anchor) return null
  if (sort === 'name')
    return sql`(${patients.name}, ${patients.id}) > (${anchor.name}::text, ${afterId}::uuid)`
  return sql`(${patients.createdAt}, ${patients.id}) < (${anchor.createdAt}::timestamptz, ${afterId}::uuid)`
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
