import { and, eq, sql } from 'drizzle-orm'
import { leadSourceLabels } from '../../../shared/schemas/leads'
import type { Tx } from '../../db/client'
import { communications, leads } from '../../db/schema/leads'
import type { MappedMetaLead } from '../../integrations/meta/map-lead'
import { recordAudit } from '../audit/audit.service'
import { autoAssign, newLeadPriority, readLeadPolicy } from '../leads/lead-intake'
import { insertCommunication } from '../leads/leads.rows'

export type UpsertOutcome = 'created' | 'duplicate'

/**
 * Stores one lead-ads record in the hospital's tenant transaction, idempotently:
 * - a new Meta lead id and a new phone → a new lead (created);
 * - a Meta lead id stored before → nothing (duplicate), however often Sync or a webhook
 *   replays it;
 * - a known phone → merged into that lead like POST /api/leads does (the enquiry becomes a
 *   system communication that carries the Meta lead id, so a replay merges nothing twice).
 * The insert yields to the unique indexes (ON CONFLICT DO NOTHING waits for a concurrent
 * insert of the same phone or Meta id), and the merge locks the lead row, so a Sync and a
 * webhook job racing on one record store it once.
 */
export async function upsertMetaLead(
  tx: Tx,
  hospitalId: string,
  lead: MappedMetaLead,
): Promise<UpsertOutcome> {
  const { enquiredAt, ...values } = lead
  const policy = await readLeadPolicy(tx)
  const priority = newLeadPriority(policy, null, { ...values, enquiredAt: enquiredAt ?? null })
  const [inserted] = await tx
    .insert(leads)
    .values({ ...values, hospitalId, status: 'new', priority })
    .onConflictDoNothing()
    .returning({ id: leads.id })
  if (inserted) {
    if (policy.autoAssignLeads) await autoAssign(tx, hospitalId, [inserted.id])
    await recordAudit(tx, {
      hospitalId,
      actorUserId: null,
      action: 'lead.created',
      entityType: 'lead',
      entityId: inserted.id,
      summary: `Added lead ${lead.name} (${leadSourceLabels[lead.source]} lead ads)`,
    })
    return 'created'
  }
  const [known] = await tx
    .select({ id: leads.id })
    .from(leads)
    .where(eq(leads.metaLeadId, lead.metaLeadId))
  if (known) return 'duplicate'

  const [holder] = await tx
    .select({ id: leads.id, metaLeadId: leads.metaLeadId })
    .from(leads)
    .where(eq(leads.phone, lead.phone))
    .for('update')
  // Neither the Meta id nor the phone is taken any more (deleted meanwhile): a retry inserts.
  if (!holder) throw new Error('the conflicting lead vanished; retry')
  const [noted] = await tx
    .select({ id: communications.id })
    .from(communications)
    .where(
      and(
        eq(communications.leadId, holder.id),
        sql`${communications.metadata} @> ${JSON.stringify({ metaLeadId: lead.metaLeadId })}::jsonb`,
      ),
    )
    .limit(1)
  if (noted) return 'duplicate'
  await tx
    .update(leads)
    .set({
      email: sql`coalesce(${leads.email}, ${lead.email})`,
      serviceInterest: sql`coalesce(${leads.serviceInterest}, ${lead.serviceInterest})`,
      campaign: sql`coalesce(${leads.campaign}, ${lead.campaign})`,
      // The first Meta record of a lead typed in by hand becomes its Meta id.
      ...(holder.metaLeadId ? {} : { metaLeadId: lead.metaLeadId, metaFormId: lead.metaFormId }),
      updatedAt: new Date(),
    })
    .where(eq(leads.id, holder.id))
  const details = [lead.serviceInterest, lead.email].filter(Boolean).join(' / ')
  await insertCommunication(tx, {
    hospitalId,
    leadId: holder.id,
    type: 'system',
    direction: 'inbound',
    content: `New enquiry (${leadSourceLabels[lead.source]}) from ${lead.name}${details ? `: ${details}` : ''}`,
    status: 'received',
    metadata: { source: lead.source, metaLeadId: lead.metaLeadId, metaFormId: lead.metaFormId },
    createdByUserId: null,
  })
  await recordAudit(tx, {
    hospitalId,
    actorUserId: null,
    action: 'lead.merged',
    entityType: 'lead',
    entityId: holder.id,
    summary: `Meta lead ${lead.metaLeadId} merged into the lead with the same phone`,
  })
  return 'duplicate'
}
