import { and, desc, eq, isNull, or, type SQL, sql } from 'drizzle-orm'
import { getCountryCallingCode } from 'libphonenumber-js/max'
import type { LeadSource, LeadStatus } from '../../../shared/schemas/leads'
import type { Tx } from '../../db/client'
import { leads } from '../../db/schema/leads'
import { decodeCursor } from '../patients/patients.search'

export { decodeCursor }

/** Numbers typed without a country code are Indian (shared/phone.ts reads them so). */
const HOME_CALLING_CODE = getCountryCallingCode('IN')
/** Text that can only be (part of) a phone number. */
const PHONE_TEXT = /^[\d\s()+.-]+$/

/**
 * What a lead search matches, each a prefix as for patients (docs/decisions/011): the name
 * ('priya', 'priya sh'), the email, and for text that looks like a phone the phone's digits
 * with or without the country code. `^@` is LEAKPROOF, so under RLS each branch is a range of
 * a (hospital_id, key text_pattern_ops) index.
 */
export function searchCondition(search: string | undefined): SQL | undefined {
  const text = search?.trim().replace(/\s+/g, ' ')
  if (!text) return undefined
  const lowered = sql`lower(${text})`
  const conditions: SQL[] = [
    sql`${leads.nameSearch} ^@ ${lowered}`,
    sql`${leads.email} ^@ ${lowered}`,
  ]
  const digits = text.replace(/\D/g, '')
  if (PHONE_TEXT.test(text) && digits) {
    const national = digits.replace(/^0+/, '') || digits
    conditions.push(
      sql`${leads.phoneDigits} ^@ ${national}`,
      sql`${leads.phoneDigits} ^@ ${HOME_CALLING_CODE + national}`,
    )
  }
  return or(...conditions)
}

export interface LeadFilters {
  status?: LeadStatus | undefined
  source?: LeadSource | undefined
  search?: string | undefined
  /** 'me', 'unassigned' or a user id. */
  assignee?: string | undefined
}

/** The list's WHERE (RLS adds the hospital): each filter an index prefix or a cheap test. */
export function filterCondition(filters: LeadFilters, userId: string): SQL | undefined {
  const assignee = filters.assignee?.trim()
  return and(
    filters.status ? eq(leads.status, filters.status) : undefined,
    filters.source ? eq(leads.source, filters.source) : undefined,
    searchCondition(filters.search),
    !assignee
      ? undefined
      : assignee === 'unassigned'
        ? isNull(leads.assignedToUserId)
        : eq(leads.assignedToUserId, assignee === 'me' ? userId : assignee),
  )
}

/** Newest first: the (hospital_id, [status | source,] created_at desc, id desc) indexes. */
export const newestFirst = [desc(leads.createdAt), desc(leads.id)]

/**
 * Rows after the cursor's lead (its id, nothing else: cursors travel in URLs and logs), as one
 * row comparison; null if the cursor names no lead of this hospital.
 */
export async function afterCursor(tx: Tx, afterId: string): Promise<SQL | null> {
  const [anchor] = await tx
    // As text: a JavaScript Date would drop the microseconds.
    .select({ createdAt: sql<string>`${leads.createdAt}::text` })
    .from(leads)
    .where(eq(leads.id, afterId))
  if (!anchor) return null
  return sql`(${leads.createdAt}, ${leads.id}) < (${anchor.createdAt}::timestamptz, ${afterId}::uuid)`
}
