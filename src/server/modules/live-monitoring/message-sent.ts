import { eq } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { leads } from '../../db/schema/leads'
import { patients } from '../../db/schema/patients'
import { recordActivity } from './activity'

/** The statuses that mean a provider accepted the message (messaging/status.ts's order). */
const ACCEPTED = new Set(['sent', 'delivered', 'read'])

/**
 * email_sent / sms_sent / whatsapp_sent (issue 29; WhatsApp since issue 40): written in the transaction that first moves a staff member's
 * outbound email or SMS to an accepted status (the send job, or a provider's callback that got
 * there first). Later callbacks (delivered, read) find it recorded (dedupe key) and add nothing.
 * Bulk and campaign sends count for the staff member who sent them; system messages (reminders,
 * no sender) count for nobody.
 */
export async function recordMessageSent(
  tx: Tx,
  row: {
    id: string
    hospitalId: string
    type: string
    createdByUserId: string | null
    leadId: string | null
    patientId: string | null
  },
  status: string,
): Promise<void> {
  if (!ACCEPTED.has(status) || !row.createdByUserId) return
  if (row.type !== 'email' && row.type !== 'sms' && row.type !== 'whatsapp') return
  const [person] = row.patientId
    ? await tx.select({ name: patients.name }).from(patients).where(eq(patients.id, row.patientId))
    : row.leadId
      ? await tx.select({ name: leads.name }).from(leads).where(eq(leads.id, row.leadId))
      : []
  await recordActivity(tx, {
    hospitalId: row.hospitalId,
    userId: row.createdByUserId,
    type: row.type === 'email' ? 'email_sent' : row.type === 'sms' ? 'sms_sent' : 'whatsapp_sent',
    data: {
      channel: row.type,
      communicationId: row.id,
      leadId: row.leadId,
      patientId: row.patientId,
      ...(row.leadId && !row.patientId ? { leadName: person?.name ?? null } : {}),
      ...(row.patientId ? { patientName: person?.name ?? null } : {}),
    },
    dedupeKey: `message:${row.id}`,
  })
}
