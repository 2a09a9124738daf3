import { formatPhone } from '@/shared/phone-format'

/**
 * The Sandbox Outbox's "to" (issue 40 item 16): a phone number as people write it
 * ('+91 98765 43210', WhatsApp's 'whatsapp:' prefix dropped); an email address as it is.
 */
export function outboxRecipient(to: string | null | undefined): string {
  if (!to) return 'unknown'
  const phone = to.replace(/^whatsapp:/, '')
  return /^\+\d{6,15}$/.test(phone) ? formatPhone(phone) : to
}
