import type { MessageChannel, TemplateApprovalStatus, TemplateCategory } from '@/shared/messaging'

/**
 * The messaging API's answers as the client reads them (issue 25's contract between sessions).
 * The server validates with its own zod schemas; these are the shapes it promises.
 */

/** Who a message goes to: a lead or a patient, with what the dialog needs to show and fill. */
export interface Recipient {
  kind: 'lead' | 'patient'
  id: string
  name: string
  phone: string | null
  email: string | null
}

export type ChannelFlags = Record<MessageChannel, boolean>

/** GET /api/messaging/contact-state */
export interface ContactState {
  whatsappWindowOpen: boolean
  lastInboundWhatsappAt: string | null
  optedOut: ChannelFlags
  sandbox: ChannelFlags
}

/** GET /api/message-templates?channel= */
export interface MessageTemplate {
  id: string
  key: string | null
  name: string
  channel: MessageChannel
  subject: string | null
  body: string
  category: TemplateCategory | null
  providerTemplateName: string | null
  contentSid: string | null
  language: string | null
  variables: string[] | null
  dltTemplateId: string | null
  approvalStatus: TemplateApprovalStatus
  /** Approved by the sandbox (no WhatsApp provider connected): labelled Sandbox. */
  sandbox?: boolean | undefined
  updatedAt: string
}

/** POST /api/message-templates and PATCH /api/message-templates/:id */
export interface TemplateInput {
  name: string
  channel: MessageChannel
  subject?: string | null
  body: string
  category: TemplateCategory
  providerTemplateName?: string | null
  contentSid?: string | null
  language?: string
  dltTemplateId?: string | null
}

/** Why bulk recipients are skipped. */
export const skipReasons = [
  'opted_out',
  'no_email',
  'no_phone',
  'invalid_number',
  'outside_window',
] as const
export type SkipReason = (typeof skipReasons)[number]

export interface BulkMessageInput {
  leadIds: string[]
  type: MessageChannel
  content?: string
  subject?: string
  templateId?: string
}

/** POST /api/leads/bulk/message/preview */
export interface BulkPreview {
  total: number
  recipients: number
  skipped: Record<SkipReason, number>
}

/** POST /api/leads/bulk/message (202) */
export interface BulkStarted {
  batchId: string
  queued: number
  skipped: Record<SkipReason, number> | number
}

/** GET /api/message-batches/:id */
export interface MessageBatch {
  id: string
  channel: MessageChannel
  requested: number
  queued: number
  skipped: number | Record<SkipReason, number>
  counts: {
    queued: number
    sending: number
    sent: number
    delivered: number
    read: number
    failed: number
  }
  failures: { reason: string; count: number }[]
  done: boolean
  createdAt: string
}

export interface SecretHint {
  set: boolean
  last4: string | null
}

export interface ChannelConnection {
  provider: string
  /** Messages on this channel go to the Sandbox Outbox (no provider, or one not complete). */
  sandbox?: boolean
  settings: Record<string, string | number | boolean | null>
  secrets: Record<string, SecretHint>
}

/** GET /api/settings/messaging */
export interface MessagingSettings {
  whatsapp: ChannelConnection
  sms: ChannelConnection
  email: ChannelConnection
  webhookUrls: {
    twilioStatus: string
    twilioInbound: string
    whatsapp: string
    sendgrid: string
    /** The Meta lead-ads webhook: the same public base as the others (http/public-url.ts). */
    metaLeads: string
  }
}

export interface SaveChannelConnection {
  provider: string
  settings: Record<string, string | number | boolean>
  secrets: Record<string, string>
}

/** PUT /api/settings/messaging: any channel left out stays as it is. */
export type SaveMessagingSettings = Partial<Record<MessageChannel, SaveChannelConnection>>

/** POST /api/settings/messaging/test */
export interface MessagingTestResult {
  ok: boolean
  provider: string
  sandbox: boolean
  providerMessageId?: string
  detail: string
}

/** GET|PUT /api/settings/notifications */
export interface NotificationSettings {
  emailEnabled: boolean
  smsEnabled: boolean
  pushEnabled: boolean
  appointmentReminders: boolean
  quietHoursStart: string
  quietHoursEnd: string
  followUpDays: number
}

/** GET /api/reminders?status=pending */
export interface Reminder {
  id: string
  type: string
  message: string
  status: string
  channel: MessageChannel | null
  dueAt: string | null
  leadId: string | null
  patientId: string | null
  name: string | null
}

/** GET /api/sandbox-outbox */
export interface SandboxMessage {
  id: string
  channel: MessageChannel
  to: string | null
  subject: string | null
  text: string
  status: string
  createdAt: string
  leadId: string | null
  patientId: string | null
}
