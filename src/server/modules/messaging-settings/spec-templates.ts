import type { MessageChannel, SpecTemplateKey, TemplateCategory } from '../../../shared/messaging'
import type { Tx } from '../../db/client'
import { messageTemplates } from '../../db/schema/messaging'

/**
 * The spec's message templates (§2 message dialog: welcome, appointment-reminder, follow-up)
 * for each channel, created for every hospital: by the demo seed, and on a hospital's first
 * read of its templates. {name} is the person's name; {clinic} the hospital's. Editable, never
 * deletable.
 */
export interface SpecTemplate {
  key: SpecTemplateKey
  channel: MessageChannel
  name: string
  subject: string | null
  body: string
  category: TemplateCategory
}

const names: Record<SpecTemplateKey, string> = {
  welcome: 'Welcome',
  'appointment-reminder': 'Appointment reminder',
  'follow-up': 'Follow-up',
}

const texts: Record<SpecTemplateKey, { chat: string; subject: string; email: string }> = {
  welcome: {
    chat: 'Namaste {name}, thank you for reaching out to {clinic}. Our team will call you shortly to help you book a visit. Reply here with any question.',
    subject: 'Welcome to {clinic}, {name}',
    email:
      'Namaste {name},\n\nThank you for reaching out to {clinic}. Our team will call you shortly to help you book a convenient time for your visit.\n\nIf you have any question in the meantime, just reply to this email.\n\nWarm regards,\n{clinic}',
  },
  'appointment-reminder': {
    chat: 'Namaste {name}, a gentle reminder of your appointment at {clinic}. Please arrive 10 minutes early and bring your previous reports. Reply to reschedule.',
    subject: 'Reminder: your appointment at {clinic}',
    email:
      'Namaste {name},\n\nThis is a gentle reminder of your upcoming appointment at {clinic}. Please arrive 10 minutes early and bring any previous prescriptions or reports.\n\nNeed to change the time? Just reply to this email.\n\nWarm regards,\n{clinic}',
  },
  'follow-up': {
    chat: 'Namaste {name}, this is {clinic} checking in. Would you like to book a consultation? Reply with a convenient day and time and we will arrange it.',
    subject: 'Shall we book your consultation, {name}?',
    email:
      'Namaste {name},\n\nWe wanted to check in after your enquiry with {clinic}. Would you like to book a consultation? Reply with a day and time that suits you and we will arrange it.\n\nWarm regards,\n{clinic}',
  },
}

const smsCategory: Record<SpecTemplateKey, TemplateCategory> = {
  welcome: 'service_implicit',
  'appointment-reminder': 'service_implicit',
  'follow-up': 'service_explicit',
}

export const specTemplates: readonly SpecTemplate[] = (
  Object.keys(texts) as SpecTemplateKey[]
).flatMap((key) => [
  {
    key,
    channel: 'whatsapp' as const,
    name: names[key],
    subject: null,
    body: texts[key].chat,
    category: 'utility' as const,
  },
  {
    key,
    channel: 'sms' as const,
    name: names[key],
    subject: null,
    body: texts[key].chat,
    category: smsCategory[key],
  },
  {
    key,
    channel: 'email' as const,
    name: names[key],
    subject: texts[key].subject,
    body: texts[key].email,
    category: 'transactional' as const,
  },
])

/**
 * Creates the spec's templates the hospital does not have yet, inside its tenant transaction.
 * Safe under concurrency: a template another transaction created first is skipped (on conflict
 * do nothing on the unique keys), as is one whose name an admin already uses.
 */
export async function ensureSpecTemplates(tx: Tx, hospitalId: string): Promise<void> {
  await tx
    .insert(messageTemplates)
    .values(
      specTemplates.map((t) => ({
        hospitalId,
        key: t.key,
        name: t.name,
        channel: t.channel,
        subject: t.subject,
        body: t.body,
        category: t.category,
        language: 'en',
        variables: ['name'],
      })),
    )
    .onConflictDoNothing()
}
