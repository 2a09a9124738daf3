/**
 * Messaging's shared vocabulary (issue 25, docs/decisions/025-messaging.md): channels,
 * providers, message states and their order, template and consent kinds. The database's CHECK
 * constraints (drizzle/0016_messaging.sql) mirror these lists.
 */

/** The channels a message leaves by. */
export const messageChannels = ['whatsapp', 'sms', 'email'] as const
export type MessageChannel = (typeof messageChannels)[number]

/** Who carries a channel for a hospital; 'sandbox' (no credentials) delivers to the Sandbox Outbox only. */
export const whatsappProviders = ['sandbox', 'meta', 'twilio'] as const
export const smsProviders = ['sandbox', 'twilio', 'msg91'] as const
export const emailProviders = ['sandbox', 'smtp', 'sendgrid'] as const
export type WhatsappProvider = (typeof whatsappProviders)[number]
export type SmsProvider = (typeof smsProviders)[number]
export type EmailProvider = (typeof emailProviders)[number]
export const providerNames = ['sandbox', 'meta', 'twilio', 'msg91', 'smtp', 'sendgrid'] as const
export type ProviderName = (typeof providerNames)[number]

/**
 * An outbound message's life: queued (row written, job enqueued) → sending (handed to the
 * provider; a crash here is reconciled, never blindly resent) → sent (provider accepted) →
 * delivered → read; or failed with a reason. Statuses only move forward: a late 'sent' never
 * undoes 'delivered'.
 */
export const outboundStatusRank = {
  queued: 0,
  sending: 1,
  sent: 2,
  delivered: 3,
  read: 4,
} as const
export type OutboundProgress = keyof typeof outboundStatusRank

/** Template categories: WhatsApp's (utility, marketing) and India's DLT SMS ones. */
export const templateCategories = [
  'utility',
  'marketing',
  'service_implicit',
  'service_explicit',
  'promotional',
  'transactional',
] as const
export type TemplateCategory = (typeof templateCategories)[number]

/** The provider's approval of a WhatsApp template ('not_required' for SMS text and email). */
export const templateApprovalStatuses = [
  'not_required',
  'pending',
  'approved',
  'rejected',
  'paused',
] as const
export type TemplateApprovalStatus = (typeof templateApprovalStatuses)[number]

/** The spec's template choices (§2 message dialog); 'custom' is no template. */
export const specTemplateKeys = ['welcome', 'appointment-reminder', 'follow-up'] as const
export type SpecTemplateKey = (typeof specTemplateKeys)[number]

/** DPDP consent: an opt-in or opt-out record, and how it was given. */
export const consentActions = ['opt_in', 'opt_out'] as const
export type ConsentAction = (typeof consentActions)[number]
export const consentMethods = ['keyword', 'button', 'staff', 'provider', 'form'] as const
export type ConsentMethod = (typeof consentMethods)[number]

/** Reminders (Settings → Notifications' Pending Reminders card). */
export const reminderTypes = ['follow_up', 'appointment', 'payment', 'custom'] as const
export type ReminderType = (typeof reminderTypes)[number]
export const reminderStatuses = ['pending', 'sent', 'failed', 'cancelled'] as const
export type ReminderStatus = (typeof reminderStatuses)[number]
