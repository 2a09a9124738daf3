import { z } from 'zod'
import { type Faq, faqFields } from '@/shared/schemas/faqs'

/** The add/edit dialog's fields: the server's own rules (spec section 5, FAQ). */
export const faqFormSchema = z.object({
  question: faqFields.question,
  answer: faqFields.answer,
  category: faqFields.category,
  sortOrder: faqFields.sortOrder,
  isPublic: faqFields.isPublic,
})
export type FaqFormValues = z.input<typeof faqFormSchema>

export const newFaqValues: FaqFormValues = {
  question: '',
  answer: '',
  category: 'general',
  sortOrder: 0,
  isPublic: true,
}

export const faqValuesOf = (faq: Faq): FaqFormValues => ({
  question: faq.question,
  answer: faq.answer,
  category: faq.category,
  sortOrder: faq.sortOrder,
  isPublic: faq.isPublic,
})
