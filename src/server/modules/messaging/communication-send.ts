import type { Communication, CreateCommunicationInput } from '../../../shared/schemas/leads'
import { withTenant } from '../../db/tenant'
import { toCommunication } from '../leads/leads.rows'
import type { TenantOptions } from '../patients/patients.service'
import { userNames } from '../leads/staff.service'
import { hospitalProfile } from './rules'
import { queueMessage } from './send.service'

/**
 * POST /api/communications for a real send (an outbound WhatsApp, SMS or email whose status is
 * not 'logged'): queued through queueMessage; the status the client sent is ignored.
 */
export async function sendCommunication(
  opts: TenantOptions & {
    values: Omit<CreateCommunicationInput, 'type'> & { type: 'whatsapp' | 'sms' | 'email' }
  },
): Promise<Communication> {
  const { values } = opts
  const hospital = await hospitalProfile(opts.db, opts.hospitalId)
  const row = await withTenant(opts.db, opts, (tx) =>
    queueMessage(tx, {
      hospitalId: opts.hospitalId,
      userId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      leadId: values.leadId ?? null,
      patientId: values.leadId ? null : (values.patientId ?? null),
      channel: values.type,
      content: values.content,
      subject: values.subject,
      templateId: values.templateId,
      metadata: values.metadata,
      hospital,
    }),
  )
  const names = await userNames(opts.db, opts.hospitalId, [row.createdByUserId])
  return toCommunication(row, names)
}
