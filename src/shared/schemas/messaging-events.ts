import { z } from 'zod'
import { consentActions, consentMethods, messageChannels } from '../messaging'
import { communicationDirections, communicationStatuses } from './leads'

/**
 * Live messaging (issue 25): what GET /api/events/messages streams, the bell's unread count,
 * and staff consent records (POST/GET /api/consents). Shared by the server and the client.
 */

/**
 * A message changed (status callback, inbound reply, a send's progress): the NOTIFY payload on
 * channel 'messaging' (with its hospital) and, without the hospital, the SSE `communication`
 * event.
 */
export const messageEvent = z.object({
  hospitalId: z.string().uuid(),
  id: z.string().uuid(),
  leadId: z.string().uuid().nullable(),
  patientId: z.string().uuid().nullable(),
  status: z.enum(communicationStatuses),
  failureReason: z.string().nullable(),
  direction: z.enum(communicationDirections),
})
export type MessageEvent = z.infer<typeof messageEvent>

/** The SSE `communication` event's data: a MessageEvent without its hospital. */
export const communicationEvent = messageEvent.omit({ hospitalId: true })
export type CommunicationEvent = z.infer<typeof communicationEvent>

/** GET /api/messaging/unread and the SSE `unread` event: unread inbound messages (the bell). */
export const unreadCount = z.object({ count: z.number().int().nonnegative() })
export type UnreadCount = z.infer<typeof unreadCount>

/** SSE `retry` event: live updates are not available on this server now; poll instead. */
export const retryEvent = z.object({ pollMs: z.number().int().positive() })
export type RetryEvent = z.infer<typeof retryEvent>

const subject = {
  leadId: z.string().uuid({ message: 'Invalid lead id' }).optional(),
  patientId: z.string().uuid({ message: 'Invalid patient id' }).optional(),
}
const oneSubject = <T extends { leadId?: string | undefined; patientId?: string | undefined }>(
  v: T,
) => (v.leadId === undefined) !== (v.patientId === undefined)
const oneSubjectMessage = { message: 'Give either a lead or a patient', path: ['leadId'] }

/** POST /api/consents: staff record an opt-in or opt-out for a lead's or patient's channel. */
export const recordConsentInput = z
  .object({
    ...subject,
    channel: z.enum(messageChannels, { message: 'Channel must be whatsapp, sms or email' }),
    action: z.enum(consentActions, { message: 'Action must be opt_in or opt_out' }),
    noticeVersion: z.string().trim().min(1).max(100).optional(),
  })
  .strict()
  .refine(oneSubject, oneSubjectMessage)
export type RecordConsentInput = z.infer<typeof recordConsentInput>

/** GET /api/consents?leadId=|patientId= */
export const consentQuery = z.object(subject).strict().refine(oneSubject, oneSubjectMessage)
export type ConsentQuery = z.infer<typeof consentQuery>

export const consentRecordView = z.object({
  id: z.string(),
  channel: z.enum(messageChannels),
  contactAddress: z.string(),
  purpose: z.string(),
  action: z.enum(consentActions),
  method: z.enum(consentMethods),
  noticeVersion: z.string().nullable(),
  recordedByName: z.string().nullable(),
  createdAt: z.string(),
})
export type ConsentRecordView = z.infer<typeof consentRecordView>
