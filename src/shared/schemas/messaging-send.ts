import { z } from 'zod'
import { messageChannels } from '../messaging'

/**
 * Sending messages (issue 25): bulk send and its preview, a batch's progress, and what the
 * message dialog needs to know about a contact before sending.
 */

export const EMPTY_MESSAGE = 'Please enter a message.'
export const MAX_BULK_RECIPIENTS = 10_000

/** Why a bulk recipient gets nothing (counted in the preview and the batch). */
export const skipReasons = [
  'opted_out',
  'no_email',
  'no_phone',
  'invalid_number',
  'outside_window',
] as const
export type SkipReason = (typeof skipReasons)[number]
export const skippedCounts = z.object({
  opted_out: z.number().int(),
  no_email: z.number().int(),
  no_phone: z.number().int(),
  invalid_number: z.number().int(),
  outside_window: z.number().int(),
})
export type SkippedCounts = z.infer<typeof skippedCounts>

const optionalId = (label: string) => z.uuid({ message: `${label} must be a valid id` }).optional()

/** POST /api/leads/bulk/message and its /preview. */
export const bulkMessageInput = z
  .strictObject({
    leadIds: z
      .array(z.uuid({ message: 'Must be a valid id' }), {
        message: 'leadIds must be a list of ids',
      })
      .min(1, { message: 'Select at least one lead' })
      .max(MAX_BULK_RECIPIENTS, { message: `At most ${MAX_BULK_RECIPIENTS} leads at once` }),
    type: z.enum(messageChannels, { message: 'type must be whatsapp, sms or email' }),
    content: z
      .string({ message: 'Must be text' })
      .trim()
      .max(5000, { message: 'Content must be at most 5000 characters' })
      .optional(),
    subject: z
      .string({ message: 'Must be text' })
      .trim()
      .max(200, { message: 'Subject must be at most 200 characters' })
      .optional(),
    templateId: optionalId('templateId'),
  })
  .superRefine((v, ctx) => {
    if (!v.content && !v.templateId) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: EMPTY_MESSAGE })
    }
  })
export type BulkMessageInput = z.input<typeof bulkMessageInput>

export const bulkPreview = z.object({
  total: z.number().int(),
  recipients: z.number().int(),
  skipped: skippedCounts,
})
export type BulkPreview = z.infer<typeof bulkPreview>

export const bulkSendResult = z.object({
  batchId: z.string(),
  queued: z.number().int(),
  skipped: skippedCounts,
})
export type BulkSendResult = z.infer<typeof bulkSendResult>

/** GET /api/message-batches/:id: a bulk send's progress and outcome. */
export const messageBatch = z.object({
  id: z.string(),
  channel: z.enum(messageChannels),
  requested: z.number().int(),
  queued: z.number().int(),
  skipped: skippedCounts,
  counts: z.object({
    queued: z.number().int(),
    sending: z.number().int(),
    sent: z.number().int(),
    delivered: z.number().int(),
    read: z.number().int(),
    failed: z.number().int(),
  }),
  failures: z.array(z.object({ reason: z.string(), count: z.number().int() })),
  /** Nothing left queued or sending. */
  done: z.boolean(),
  createdAt: z.string(),
})
export type MessageBatch = z.infer<typeof messageBatch>

/** GET /api/messaging/contact-state?leadId=… or ?patientId=… (exactly one). */
export const contactStateQuery = z
  .strictObject({ leadId: optionalId('leadId'), patientId: optionalId('patientId') })
  .superRefine((v, ctx) => {
    if (Boolean(v.leadId) === Boolean(v.patientId)) {
      ctx.addIssue({ code: 'custom', path: ['leadId'], message: 'Give either leadId or patientId' })
    }
  })

const perChannel = z.object({ whatsapp: z.boolean(), sms: z.boolean(), email: z.boolean() })
export const contactState = z.object({
  whatsappWindowOpen: z.boolean(),
  lastInboundWhatsappAt: z.string().nullable(),
  optedOut: perChannel,
  sandbox: perChannel,
})
export type ContactState = z.infer<typeof contactState>
