import { and, eq, ne } from 'drizzle-orm'
import { PAGE_SIZE } from '../../../shared/schemas/common'
import type { Lead, LeadsPage, LeadStatus } from '../../../shared/schemas/leads'
import type { Tx } from '../../db/client'
import { leads } from '../../db/schema/leads'
import { withTenant } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { leadColumns, type LeadRow, type TenantOptions, withNames } from './leads.rows'
import {
  afterCursor,
  decodeCursor,
  filterCondition,
  type LeadFilters,
  newestFirst,
} from './leads.search'
import { assertAssignable } from './staff.service'
import { isUniqueViolation } from '../../db/sql-error'

/**
 * A page of the hospital's leads, newest first, filtered by status, source, a search text and
 * the assignee; the cursor is the id of the previous page's last lead.
 */
export async function listLeads(
  opts: TenantOptions & LeadFilters & { limit?: number | undefined; cursor?: string | undefined },
): Promise<LeadsPage> {
  const limit = opts.limit ?? PAGE_SIZE
  const afterId = opts.cursor ? decodeCursor(opts.cursor) : null
  const rows = await withTenant(opts.db, opts, async (tx) => {
    const after = afterId ? await afterCursor(tx, afterId) : undefined
    // A cursor naming no lead of this hospital ends the list.
    if (after === null) return []
    return tx
      .select(leadColumns)
      .from(leads)
      .where(and(filterCondition(opts, opts.userId), after))
      .orderBy(...newestFirst)
      .limit(limit + 1)
  })
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    leads: await withNames(opts, page),
    nextCursor: rows.length > limit && last ? last.id : null,
  }
}

/** The lead with this id in the transaction's hospital; 404 otherwise. `lock` takes its row lock. */
export async function findLead(tx: Tx, id: string, lock = false): Promise<LeadRow> {
  const query = tx.select(leadColumns).from(leads).where(eq(leads.id, id))
  const [row] = await (lock ? query.for('update') : query)
  if (!row) throw notFound('Lead')
  return row
}

export async function getLead(opts: TenantOptions & { id: string }): Promise<Lead> {
  const row = await withTenant(opts.db, opts, (tx) => findLead(tx, opts.id))
  const [lead] = await withNames(opts, [row])
  return lead as Lead
}

export interface LeadChanges {
  name?: string | undefined
  phone?: string | undefined
  email?: string | null | undefined
  serviceInterest?: string | null | undefined
  campaign?: string | null | undefined
  notes?: string | null | undefined
  priority?: LeadRow['priority'] | undefined
  assignedToUserId?: string | null | undefined
  status?: Exclude<LeadStatus, 'converted'> | undefined
}

export const PHONE_TAKEN = 'Another lead already has this phone number'

function phoneTaken(name?: string): AppError {
  const message = name ? `${PHONE_TAKEN} (${name})` : PHONE_TAKEN
  return new AppError('CONFLICT', message, [{ path: 'phone', message }])
}

/** PATCH /api/leads/:id. A phone another lead has is a 409; a converted lead keeps its status. */
export async function updateLead(
  opts: TenantOptions & { id: string; values: LeadChanges },
): Promise<Lead> {
  const { values } = opts
  await assertAssignable(opts.db, opts.hospitalId, values.assignedToUserId)
  const row = await withTenant(opts.db, opts, async (tx) => {
    const current = await findLead(tx, opts.id, true)
    if (values.status && current.status === 'converted') {
      throw new AppError(
        'CONFLICT',
        'This lead was converted to a patient; its status can no longer change',
      )
    }
    if (values.phone && values.phone !== current.phone) {
      const [other] = await tx
        .select({ name: leads.name })
        .from(leads)
        .where(and(eq(leads.phone, values.phone), ne(leads.id, opts.id)))
      if (other) throw phoneTaken(other.name)
    }
    const [updated] = await tx
      .update(leads)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(leads.id, opts.id))
      .returning(leadColumns)
    if (!updated) throw notFound('Lead')
    const statusChange =
      values.status && values.status !== current.status
        ? ` (status ${current.status} → ${values.status})`
        : ''
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'lead.updated',
      entityType: 'lead',
      entityId: updated.id,
      summary: `Updated ${Object.keys(values).join(', ')} of lead ${updated.name}${statusChange}`,
    })
    return updated
  }).catch((error: unknown) => {
    // Two edits racing to the same phone: the unique index decides.
    if (isUniqueViolation(error)) throw phoneTaken()
    throw error
  })
  const [lead] = await withNames(opts, [row])
  return lead as Lead
}
