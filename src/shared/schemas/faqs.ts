import { z } from 'zod'
import { HTML_TAG } from '../faq-format'

/*
 * FAQ Management (issue 28; spec section 2, 3, 5 and 9): GET/POST /api/faqs, PUT/DELETE
 * /api/faqs/:id, PUT /api/faqs/order, POST /api/faqs/suggested. Questions and answers are
 * plain text; HTML tags are refused (docs/decisions/035) and every output escapes.
 */

/** Spec section 9, FAQ categories. */
export const faqCategories = [
  'general',
  'technical',
  'billing',
  'features',
  'troubleshooting',
] as const
export type FaqCategory = (typeof faqCategories)[number]

export const faqCategoryLabels: Record<FaqCategory, string> = {
  general: 'General',
  technical: 'Technical',
  billing: 'Billing',
  features: 'Features',
  troubleshooting: 'Troubleshooting',
}

export const FAQ_QUESTION_MAX = 300
export const FAQ_ANSWER_MAX = 5000
export const FAQ_SORT_ORDER_MAX = 100_000
/** The most FAQs one hospital keeps (a per-hospital quota: 409 beyond it). */
export const FAQ_LIMIT = 200
export const FAQ_SEARCH_MAX = 100

export const NO_HTML_MESSAGE =
  'HTML tags are not allowed. Write plain text: a blank line starts a paragraph, "- " or "1. " starts a list item, and [text](https://...) makes a link.'

const plainText = (label: string, max: number) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, { message: `${label} is required` })
    .max(max, { message: `${label} must be at most ${max} characters` })
    .refine((v) => !HTML_TAG.test(v), { message: NO_HTML_MESSAGE })

export const faqFields = {
  question: plainText('Question', FAQ_QUESTION_MAX),
  answer: plainText('Answer', FAQ_ANSWER_MAX),
  category: z.enum(faqCategories, {
    message: 'Category must be general, technical, billing, features or troubleshooting',
  }),
  sortOrder: z
    .number({ message: 'Sort order must be a number' })
    .int({ message: 'Sort order must be a whole number' })
    .min(0, { message: 'Sort order must be 0 or more' })
    .max(FAQ_SORT_ORDER_MAX, { message: `Sort order must be at most ${FAQ_SORT_ORDER_MAX}` }),
  isPublic: z.boolean({ message: 'Public must be true or false' }),
}

export const createFaqInput = z.strictObject({
  question: faqFields.question,
  answer: faqFields.answer,
  category: faqFields.category.default('general'),
  sortOrder: faqFields.sortOrder.default(0),
  isPublic: faqFields.isPublic.default(true),
})
export type CreateFaqInput = z.input<typeof createFaqInput>

export const updateFaqInput = z
  .strictObject({
    question: faqFields.question.optional(),
    answer: faqFields.answer.optional(),
    category: faqFields.category.optional(),
    sortOrder: faqFields.sortOrder.optional(),
    isPublic: faqFields.isPublic.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Nothing to change' })
export type UpdateFaqInput = z.input<typeof updateFaqInput>

export const faqListQuery = z.strictObject({
  q: z
    .string({ message: 'Search must be text' })
    .trim()
    .max(FAQ_SEARCH_MAX, { message: `Search must be at most ${FAQ_SEARCH_MAX} characters` })
    .optional(),
  category: z
    .enum(['all', ...faqCategories], {
      message: 'Category must be all, general, technical, billing, features or troubleshooting',
    })
    .optional(),
})
export type FaqListQuery = z.infer<typeof faqListQuery>

/** PUT /api/faqs/order: every FAQ of the hospital, each once, in the new order. */
export const reorderFaqsInput = z.strictObject({
  ids: z
    .array(z.uuid({ message: 'Must be a valid id' }), { message: 'ids must be a list of FAQ ids' })
    .max(FAQ_LIMIT, { message: `At most ${FAQ_LIMIT} ids` })
    .refine((ids) => new Set(ids).size === ids.length, { message: 'Each FAQ may appear once' }),
})
export type ReorderFaqsInput = z.infer<typeof reorderFaqsInput>

export const faq = z.object({
  id: z.uuid(),
  question: z.string(),
  answer: z.string(),
  category: z.enum(faqCategories),
  sortOrder: z.number().int(),
  isPublic: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Faq = z.infer<typeof faq>

/** GET /api/faqs: the FAQs in order, and the public page's path (null without a slug). */
export const faqList = z.object({
  faqs: z.array(faq),
  total: z.number().int(),
  publicPath: z.string().nullable(),
})
export type FaqList = z.infer<typeof faqList>

/** POST /api/faqs/suggested: how many of the 8 were added now (0 when all were there). */
export const addSuggestedResult = z.object({ added: z.number().int(), faqs: z.array(faq) })
export type AddSuggestedResult = z.infer<typeof addSuggestedResult>
