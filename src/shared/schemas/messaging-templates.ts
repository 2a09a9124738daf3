import { z } from 'zod'
import { messageChannels, templateApprovalStatuses, templateCategories } from '../messaging'

/*
 * Message templates (issue 25): the spec's welcome, appointment-reminder and follow-up per
 * channel (seeded for every hospital) and any an admin adds. A WhatsApp template that opens a
 * conversation names its approved provider template; an SMS one its DLT template id.
 */

export const messageTemplate = z.object({
  id: z.uuid(),
  key: z.string().nullable(),
  name: z.string(),
  channel: z.enum(messageChannels),
  subject: z.string().nullable(),
  body: z.string(),
  category: z.enum(templateCategories),
  providerTemplateName: z.string().nullable(),
  contentSid: z.string().nullable(),
  language: z.string(),
  variables: z.array(z.string()),
  dltTemplateId: z.string().nullable(),
  approvalStatus: z.enum(templateApprovalStatuses),
  /**
   * Approved by the sandbox (no WhatsApp provider connected): it stands in for a provider whose
   * templates are all approved, shown with a Sandbox label; connect a provider to submit it.
   */
  sandbox: z.boolean(),
  updatedAt: z.string(),
})
export type MessageTemplate = z.infer<typeof messageTemplate>

export const templateListQuery = z.strictObject({
  channel: z
    .enum(messageChannels, { message: 'Channel must be whatsapp, sms or email' })
    .optional(),
})

const nullableText = (label: string, max: number, pattern?: RegExp, message?: string) =>
  z
    .string({ message: `${label} must be text` })
    .trim()
    .max(max, { message: `${label} must be at most ${max} characters` })
    .refine((v) => v === '' || !pattern || pattern.test(v), {
      message: message ?? `Invalid ${label}`,
    })
    .transform((v) => (v === '' ? null : v))
    .nullish()

/** The fields a template has; the create and update schemas add the cross-field rules. */
export const templateFields = {
  name: z
    .string({ message: 'Name is required' })
    .trim()
    .min(1, { message: 'Name is required' })
    .max(80, { message: 'Name must be at most 80 characters' }),
  subject: nullableText('Subject', 200),
  body: z
    .string({ message: 'Please enter the message text.' })
    .trim()
    .min(1, { message: 'Please enter the message text.' })
    .max(4096, { message: 'Message must be at most 4096 characters' }),
  category: z.enum(templateCategories, { message: 'Unknown category' }),
  providerTemplateName: nullableText(
    'Template name',
    512,
    /^[a-z0-9_]+$/,
    'Template name must be lower-case letters, digits and underscores (as in WhatsApp Manager)',
  ),
  contentSid: nullableText(
    'Content SID',
    34,
    /^HX[0-9a-fA-F]{32}$/,
    'Content SID starts with HX followed by 32 letters and digits',
  ),
  language: z
    .string({ message: 'Language must be text' })
    .trim()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, {
      message: 'Language must be a code such as en, hi or en_US',
    }),
  variables: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[a-zA-Z][a-zA-Z0-9_]{0,39}$/, {
          message: 'Variable names are letters, digits and _',
        }),
      { message: 'Variables must be a list of names' },
    )
    .max(20, { message: 'At most 20 variables' }),
  dltTemplateId: nullableText(
    'DLT template ID',
    25,
    /^\d{10,25}$/,
    'DLT template ID must be 10 to 25 digits',
  ),
}

export const createTemplateInput = z.strictObject({
  channel: z.enum(messageChannels, { message: 'Channel must be whatsapp, sms or email' }),
  ...templateFields,
  language: templateFields.language.default('en'),
  variables: templateFields.variables.default([]),
})
export type CreateTemplateInput = z.infer<typeof createTemplateInput>

/** PATCH: any field but the channel and key. */
export const updateTemplateInput = z
  .strictObject({
    name: templateFields.name.optional(),
    subject: templateFields.subject,
    body: templateFields.body.optional(),
    category: templateFields.category.optional(),
    providerTemplateName: templateFields.providerTemplateName,
    contentSid: templateFields.contentSid,
    language: templateFields.language.optional(),
    variables: templateFields.variables.optional(),
    dltTemplateId: templateFields.dltTemplateId,
  })
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to change' })
export type UpdateTemplateInput = z.infer<typeof updateTemplateInput>

export const resyncResult = z.object({
  checked: z.number(),
  updated: z.number(),
  /** What needs doing: templates the provider does not know, not yet submitted, or rejected (with why). */
  notes: z.array(z.string()),
  templates: z.array(messageTemplate),
})
export type ResyncResult = z.infer<typeof resyncResult>
