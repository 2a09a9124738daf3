import { z } from 'zod'

/**
 * The WhatsApp Cloud API webhook as far as we read it (contracts: meta-whatsapp
 * business-messaging-api_v23.0.yaml, WebhookPayload → Entry → Change; StatusMessageValue,
 * Statuses, IncomingMessage; and the template status update). Unknown fields are allowed and
 * ignored (Meta adds fields); what we read must have its shape, or the delivery is a 400.
 */
const id = z.string().min(1).max(200)
const digits = z.string().regex(/^\d{1,40}$/)

export const statusError = z.object({
  code: z.union([z.number().int(), z.string().regex(/^\d{1,10}$/)]).transform(String),
  title: z.string().max(1000).optional(),
  message: z.string().max(1000).optional(),
})

/** Statuses (sent, delivered, read, failed); other values are read and ignored. */
export const statusItem = z.object({
  id,
  status: z.string().max(30),
  timestamp: z.string().max(20).optional(),
  recipient_id: z.string().max(40).optional(),
  errors: z.array(statusError).max(20).optional(),
  /** What the send put there: our communication id (the idempotency key). */
  biz_opaque_callback_data: z.string().max(512).optional(),
})

const text = z.object({ body: z.string().max(10_000) })
const button = z.object({
  text: z.string().max(1000).optional(),
  payload: z.string().max(1000).optional(),
})
const reply = z.object({
  id: z.string().max(1000).optional(),
  title: z.string().max(1000).optional(),
})
const interactive = z.object({
  type: z.string().max(40).optional(),
  button_reply: reply.optional(),
  list_reply: reply.optional(),
})

/** IncomingMessage: text, button and interactive replies are read; other types kept as "[type]". */
export const incomingMessage = z.object({
  from: z.string().min(1).max(40),
  id,
  timestamp: z.string().max(20).optional(),
  type: z.string().min(1).max(40),
  text: text.optional(),
  button: button.optional(),
  interactive: interactive.optional(),
})

export const contactProfile = z.object({
  profile: z.object({ name: z.string().max(500).optional() }).optional(),
  wa_id: z.string().max(40).optional(),
})

/** StatusMessageValue / IncomingMessageValueGeneral (field 'messages'). */
export const messagesValue = z.object({
  messaging_product: z.string().max(40).optional(),
  metadata: z.object({
    display_phone_number: z.string().max(40).optional(),
    phone_number_id: digits,
  }),
  contacts: z.array(contactProfile).max(100).optional(),
  messages: z.array(incomingMessage).max(1000).optional(),
  statuses: z.array(statusItem).max(1000).optional(),
})
export type MessagesValue = z.infer<typeof messagesValue>

/** field 'message_template_status_update' (entry.id is the WhatsApp Business Account). */
export const templateStatusValue = z.object({
  event: z.string().min(1).max(40),
  message_template_id: z.union([z.number(), z.string()]).optional(),
  message_template_name: z.string().min(1).max(512),
  message_template_language: z.string().max(20).optional(),
  reason: z.string().max(1000).nullable().optional(),
})
export type TemplateStatusValue = z.infer<typeof templateStatusValue>

export const webhookPayload = z.object({
  object: z.literal('whatsapp_business_account'),
  entry: z
    .array(
      z.object({
        id: digits,
        changes: z.array(z.object({ field: z.string().max(100), value: z.unknown() })).max(100),
      }),
    )
    .min(1)
    .max(100),
})

export type MetaChange =
  | { kind: 'messages'; phoneNumberId: string; value: MessagesValue }
  | { kind: 'template'; businessAccountId: string; value: TemplateStatusValue }

/** The changes we handle (others, e.g. group updates, are skipped); null when malformed. */
export function parseMetaPayload(json: unknown): MetaChange[] | null {
  try {
    return parseChanges(json)
  } catch {
    // zod throws (instead of failing) on a few hostile shapes, e.g. a `length` it cannot compare.
    return null
  }
}

function parseChanges(json: unknown): MetaChange[] | null {
  const payload = webhookPayload.safeParse(json)
  if (!payload.success) return null
  const changes: MetaChange[] = []
  for (const entry of payload.data.entry) {
    for (const change of entry.changes) {
      if (change.field === 'messages') {
        const value = messagesValue.safeParse(change.value)
        if (!value.success) return null
        changes.push({
          kind: 'messages',
          phoneNumberId: value.data.metadata.phone_number_id,
          value: value.data,
        })
      } else if (change.field === 'message_template_status_update') {
        const value = templateStatusValue.safeParse(change.value)
        if (!value.success) return null
        changes.push({ kind: 'template', businessAccountId: entry.id, value: value.data })
      }
    }
  }
  return changes
}
