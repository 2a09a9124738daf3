import { eq, sql } from 'drizzle-orm'
import {
  type CreateLeadResult,
  leadSourceLabels,
  type manualLeadSources,
} from '../../../shared/schemas/leads'
import type { Tx } from '../../db/client'
import { leads } from '../../db/schema/leads'
import { withTenant } from '../../db/tenant'
import { recordAudit } from '../audit/audit.service'
import {
  type Actor,
  insertCommunication,
  leadColumns,
  type LeadRow,
  type TenantOptions,
  withNames,
} from './leads.rows'
import { autoAssign, newLeadPriority, readLeadPolicy } from './lead-intake'
import { findLead } from './leads.service'
import { assertAssignable } from './staff.service'

export interface NewLead {
  name: string
  phone: string
  email: string | null
  serviceInterest: string | null
  campaign: string | null
  notes: string | null
  /** Given by a person; null: scored (Settings → priority scoring) or medium. */
  priority: LeadRow['priority'] | null
  /** Typed in by staff (New Lead), or a row of an imported CSV file. */
  source: (typeof manualLeadSources)[number] | 'csv-import'
  assignedToUserId?: string | null | undefined
}

/** The system note a repeat enquiry leaves on the lead it merged into. */
export function enquiryNote(lead: Pick<LeadRow, 'name'>, input: NewLead): string {
  const from = input.name.toLowerCase() === lead.name.toLowerCase() ? '' : ` from ${input.name}`
  const text = [input.serviceInterest, input.notes, input.email].filter(Boolean).join(' / ')
  return `New enquiry (${leadSourceLabels[input.source]})${from}${text ? `: ${text}` : ''}`
}

/**
 * A second enquiry from a known phone: the lead keeps its name, gains what it lacked (email,
 * service interest, campaign, assignee), and the enquiry becomes a system communication.
 * POST /api/leads and the CSV import both merge here; an import audits once for the whole file
 * (audit: false) instead of once per merged row.
 */
export async function mergeInto(
  tx: Tx,
  who: Actor,
  input: NewLead,
  { audit = true }: { audit?: boolean } = {},
): Promise<LeadRow> {
  const [existing] = await tx
    .select({ id: leads.id })
    .from(leads)
    .where(eq(leads.phone, input.phone))
  // The conflicting row is committed (ON CONFLICT waited for it) unless it was deleted since.
  if (!existing) throw new Error('lead with this phone vanished during the merge')
  const current = await findLead(tx, existing.id, true)
  const [merged] = await tx
    .update(leads)
    .set({
      email: sql`coalesce(${leads.email}, ${input.email})`,
      serviceInterest: sql`coalesce(${leads.serviceInterest}, ${input.serviceInterest})`,
      campaign: sql`coalesce(${leads.campaign}, ${input.campaign})`,
      assignedToUserId: sql`coalesce(${leads.assignedToUserId}, ${input.assignedToUserId ?? null})`,
      updatedAt: new Date(),
    })
    .where(eq(leads.id, current.id))
    .returning(leadColumns)
  if (!merged) throw new Error('merged lead was not saved')
  await insertCommunication(tx, {
    hospitalId: who.hospitalId,
    leadId: merged.id,
    type: 'system',
    direction: 'inbound',
    content: enquiryNote(current, input),
    status: 'received',
    metadata: { source: input.source },
    createdByUserId: null,
  })
  if (!audit) return merged
  await recordAudit(tx, {
    hospitalId: who.hospitalId,
    actorUserId: who.userId,
    impersonatorUserId: who.impersonatorUserId,
    action: 'lead.merged',
    entityType: 'lead',
    entityId: merged.id,
    summary: `New enquiry from a known phone merged into lead ${merged.name}`,
  })
  return merged
}

/**
 * POST /api/leads. One lead per phone per hospital, also under concurrency: the insert yields
 * to the unique index (ON CONFLICT DO NOTHING waits for a concurrent insert of the same phone
 * to commit) and a conflict merges into the lead that holds the phone.
 */
export async function createLead(
  opts: TenantOptions & { values: NewLead },
): Promise<CreateLeadResult> {
  const input = opts.values
  await assertAssignable(opts.db, opts.hospitalId, input.assignedToUserId)
  const { row, duplicate } = await withTenant(opts.db, opts, async (tx) => {
    const policy = await readLeadPolicy(tx)
    const [created] = await tx
      .insert(leads)
      .values({
        ...input,
        priority: newLeadPriority(policy, input.priority, { ...input, enquiredAt: null }),
        assignedToUserId: input.assignedToUserId ?? null,
        hospitalId: opts.hospitalId,
      })
      .onConflictDoNothing({ target: [leads.hospitalId, leads.phone] })
      .returning(leadColumns)
    if (!created) return { row: await mergeInto(tx, opts, input), duplicate: true }
    let inserted = created
    if (!created.assignedToUserId && policy.autoAssignLeads) {
      const assignee = (await autoAssign(tx, opts.hospitalId, [created.id])).get(created.id)
      if (assignee) inserted = { ...created, assignedToUserId: assignee }
    }
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'lead.created',
      entityType: 'lead',
      entityId: inserted.id,
      summary: `Added lead ${inserted.name} (${leadSourceLabels[inserted.source]})`,
    })
    return { row: inserted, duplicate: false }
  })
  const [lead] = await withNames(opts, [row])
  if (!lead) throw new Error('lead missing')
  return { lead, duplicate }
}
