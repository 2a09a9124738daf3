import type { MessageChannel } from '@/shared/messaging'
import { fillTemplate, smsParts } from '@/shared/message-text'
import type { CommunicationStatus } from '@/shared/schemas/leads'
import type { ContactState, MessageBatch, MessageTemplate, SkipReason } from './types'

export const channelLabels: Record<MessageChannel, string> = {
  whatsapp: 'WhatsApp',
  sms: 'SMS',
  email: 'Email',
}

/** The spec's template choices, in its order; 'custom' is no template. */
const specOrder = ['welcome', 'appointment-reminder', 'follow-up']

/**
 * Picking a template: its text and (email) subject with {name} (and {clinic}, the hospital's
 * name, when known) filled in, as the server fills them.
 */
export function applyTemplate(
  template: Pick<MessageTemplate, 'body' | 'subject'>,
  name: string,
  clinic?: string | null,
): { content: string; subject: string } {
  const values: Record<string, string> = clinic ? { name, clinic } : { name }
  return {
    content: fillTemplate(template.body, values),
    subject: template.subject ? fillTemplate(template.subject, values) : '',
  }
}

/** Why this channel cannot carry free text to the contact now, in the server's words. */
export function freeTextBlock(
  channel: MessageChannel,
  state: ContactState | undefined,
): 'opted-out' | 'outside-window' | null {
  if (!state) return null
  if (state.optedOut[channel]) return 'opted-out'
  if (channel === 'whatsapp' && !state.whatsappWindowOpen) return 'outside-window'
  return null
}

export const optedOutText = (channel: MessageChannel) =>
  `This contact has opted out of ${channelLabels[channel]} messages.`
export const OUTSIDE_WINDOW_TEXT =
  'No WhatsApp message from this contact in the last 24 hours: send an approved template instead.'

/**
 * The templates the dialog offers: the spec's three first, then the hospital's own. Outside
 * WhatsApp's 24-hour window only approved templates may start the conversation.
 */
export function offeredTemplates(
  templates: readonly MessageTemplate[],
  outsideWindow: boolean,
): MessageTemplate[] {
  return templateChoices(templates, outsideWindow).filter((t) => !t.needsApproval)
}

/**
 * Every template the dialog lists, in order (the spec's welcome, appointment-reminder and
 * follow-up first), each saying whether it needs an approved WhatsApp template before it can
 * be sent now (outside the 24-hour window, not approved): listed, but not choosable.
 */
export function templateChoices(
  templates: readonly MessageTemplate[],
  outsideWindow: boolean,
): (MessageTemplate & { needsApproval: boolean })[] {
  const rank = (t: MessageTemplate) => {
    const i = specOrder.indexOf(t.key ?? '')
    return i === -1 ? specOrder.length : i
  }
  return templates
    .map((t) => ({ ...t, needsApproval: outsideWindow && !opensConversation(t) }))
    .toSorted((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name))
}

/**
 * An approved WhatsApp template may open a conversation: one naming the provider's approved
 * template, or any on the sandbox (it stands in for a provider that approves them all).
 */
export function opensConversation(
  t: Pick<MessageTemplate, 'approvalStatus' | 'providerTemplateName' | 'contentSid' | 'sandbox'>,
): boolean {
  if (t.approvalStatus !== 'approved') return false
  return Boolean(t.sandbox || t.providerTemplateName || t.contentSid)
}

/** How to get a template approved, for the dialog's hint (Settings → Templates). */
export const APPROVAL_HINT =
  'Outside the 24-hour window WhatsApp delivers only templates it has approved. To get one approved, an admin submits it in WhatsApp Manager (or Twilio), enters its template name in Settings → Templates and presses Resync.'

/** The SMS counter: spec 'n/160' (70 a part once Hindi or ₹ make it UCS-2), parts, encoding. */
export function smsCounter(text: string): { count: string; detail: string } {
  const p = smsParts(text)
  const parts = `${p.parts} ${p.parts === 1 ? 'part' : 'parts'}`
  return {
    count: `${p.length}/${p.singleLimit}`,
    detail:
      p.encoding === 'UCS-2'
        ? `${parts} · Unicode (UCS-2): ${p.singleLimit} characters a message, ${p.perPart} a part`
        : `${parts} · GSM-7`,
  }
}

/** Message states in a receptionist's words. */
export const statusLabels: Record<CommunicationStatus, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  failed: 'Failed',
  received: 'Received',
  logged: 'Logged',
}

export const skipReasonLabels: Record<SkipReason, string> = {
  opted_out: 'Opted out',
  no_email: 'No email address',
  no_phone: 'No phone number',
  invalid_number: 'Invalid number',
  outside_window: 'Outside the WhatsApp 24-hour window, no template',
}

/** How far a batch is: the messages the provider has taken (or refused) of those queued. */
export function batchPercent(batch: MessageBatch): number {
  if (batch.done) return 100
  const c = batch.counts
  const processed = c.sent + c.delivered + c.read + c.failed
  if (batch.queued <= 0) return 0
  return Math.min(100, Math.round((processed / batch.queued) * 100))
}

/** A skipped count as the server gives it: a number, or counts by reason. */
export function skippedTotal(skipped: number | Partial<Record<SkipReason, number>>): number {
  if (typeof skipped === 'number') return skipped
  return Object.values(skipped).reduce<number>((sum, n) => sum + (n ?? 0), 0)
}

/** The end-of-batch summary: accepted by the provider, delivered (or read), failed. */
export function batchSummary(batch: MessageBatch): {
  sent: number
  delivered: number
  failed: number
} {
  const c = batch.counts
  return { sent: c.sent + c.delivered + c.read, delivered: c.delivered + c.read, failed: c.failed }
}
