import type { MessageChannel, TemplateCategory } from '../../../shared/messaging'
import type { messageTemplates } from '../../db/schema/messaging'
import { AppError } from '../../http/app-error'

type TemplateRow = typeof messageTemplates.$inferSelect

/** Categories each channel's templates may have. */
export const categoriesOf: Record<MessageChannel, readonly TemplateCategory[]> = {
  whatsapp: ['utility', 'marketing'],
  sms: ['service_implicit', 'service_explicit', 'promotional'],
  email: ['transactional', 'marketing'],
}

const issue = (path: string, message: string) =>
  new AppError('VALIDATION', `Invalid input: ${path}: ${message}`, [{ path, message }])

/** {placeholders} a body may use: its variables, the spec's {name} and {clinic}, DLT's {#var#}. */
const PLACEHOLDER = /\{(#var#|[a-zA-Z][a-zA-Z0-9_]*)\}/g

/**
 * A template's values as they will be stored, checked across fields: the category fits the
 * channel; a subject only for email (required there); an SMS body uses only known placeholders
 * or DLT's {#var#}, as its DLT registration does; a WhatsApp template naming a provider template
 * (Meta name or Twilio Content SID) waits for approval.
 */
export function checked(
  v: Omit<TemplateRow, 'hospitalId' | 'id' | 'createdAt' | 'updatedAt' | 'approvalStatus'>,
) {
  if (!categoriesOf[v.channel].includes(v.category)) {
    throw issue(
      'category',
      `A ${v.channel} template's category is ${categoriesOf[v.channel].join(', ')}`,
    )
  }
  if (v.channel === 'email' && !v.subject)
    throw issue('subject', 'An email template needs a subject')
  if (v.channel !== 'email' && v.subject)
    throw issue('subject', 'Only email templates have a subject')
  if (v.channel !== 'whatsapp' && (v.providerTemplateName || v.contentSid)) {
    throw issue('providerTemplateName', 'Only WhatsApp templates name a provider template')
  }
  if (v.channel !== 'sms' && v.dltTemplateId) {
    throw issue('dltTemplateId', 'Only SMS templates have a DLT template ID')
  }
  const known = new Set(['#var#', 'name', 'clinic', 'hospital', ...v.variables])
  for (const [, name] of v.body.matchAll(PLACEHOLDER)) {
    if (name && !known.has(name)) {
      throw issue(
        'body',
        `Unknown placeholder {${name}}: use {name}, {clinic}, {#var#} or a listed variable`,
      )
    }
  }
  return v
}
