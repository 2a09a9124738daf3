import { and, eq, isNull } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { communications } from '../../db/schema/leads'
import { recordAudit } from '../audit/audit.service'
import type { TenantOptions } from '../patients/patients.service'

/**
 * A lead's or a patient's unread inbound messages are seen (the bell): POST /api/leads/:id/read
 * and POST /api/patients/:id/read, inside the caller's tenant transaction once the subject was
 * found. Audited only when something changed (the dialogs call it every time they open).
 */
export async function markInboundRead(
  tx: Tx,
  opts: Omit<TenantOptions, 'db'>,
  subject: { kind: 'lead' | 'patient'; id: string; name: string },
): Promise<void> {
  const seen = await tx
    .update(communications)
    .set({ readAt: new Date() })
    .where(
      and(
        subject.kind === 'lead'
          ? eq(communications.leadId, subject.id)
          : eq(communications.patientId, subject.id),
        eq(communications.direction, 'inbound'),
        isNull(communications.readAt),
      ),
    )
    .returning({ id: communications.id })
  if (!seen.length) return
  await recordAudit(tx, {
    hospitalId: opts.hospitalId,
    actorUserId: opts.userId,
    impersonatorUserId: opts.impersonatorUserId,
    action: 'communication.read',
    entityType: subject.kind,
    entityId: subject.id,
    summary: `Marked ${seen.length} inbound message(s) of ${subject.kind} ${subject.name} read`,
  })
}
