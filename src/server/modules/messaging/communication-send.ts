import { and, eq } from 'drizzle-orm'
import { type MessageChannel, specTemplateKeys } from '../../../shared/messaging'
import type { Communication, CreateCommunicationInput } from '../../../shared/schemas/leads'
import type { Tx } from '../../db/client'
import { messageTemplates } from '../../db/schema/messaging'
import { withTenant } from '../../db/tenant'
import { toCommunication } from '../leads/leads.rows'
import type { TenantOptions } from '../patients/patients.service'
import { userNames } from '../leads/staff.service'
import { ensureSpecTemplates } from '../messaging-settings/spec-templates'
import { hospitalProfile } from './rules'
import { queueMessage } from './send.service'

/**
 * The spec's request shape names its template in `metadata.template` ('welcome',
 * 'appointment-reminder', 'follow-up'; 'custom' is none): without a templateId, that names the
 * hospital's own template of that key for the channel (issue 40 item 21), so a WhatsApp welcome
 * goes as the approved template, as the dialog's would.
 */
async function templateNamedInMetadata(
  tx: Tx,
  hospitalId: string,
  channel: MessageChannel,
  metadata: CreateCommunicationInput['metadata'],
): Promise<string | undefined> {
  const key = metadata?.template
  if (typeof key !== 'string' || !specTemplateKeys.some((k) => k === key)) return undefined
  await ensureSpecTemplates(tx, hospitalId)
  const [row] = await tx
    .select({ id: messageTemplates.id })
    .from(messageTemplates)
    .where(and(eq(messageTemplates.channel, channel), eq(messageTemplates.key, key)))
  return row?.id
}

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
  const row = await withTenant(opts.db, opts, async (tx) =>
    queueMessage(tx, {
      hospitalId: opts.hospitalId,
      userId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      leadId: values.leadId ?? null,
      patientId: values.leadId ? null : (values.patientId ?? null),
      channel: values.type,
      content: values.content,
      subject: values.subject,
      templateId:
        values.templateId ??
        (await templateNamedInMetadata(tx, opts.hospitalId, values.type, values.metadata)),
      metadata: values.metadata,
      hospital,
    }),
  )
  const names = await userNames(opts.db, opts.hospitalId, [row.createdByUserId])
  return toCommunication(row, names)
}
