import { eq, sql } from 'drizzle-orm'
import { faqSuggestions } from '../../../shared/faq-suggestions'
import type { FaqCategory } from '../../../shared/schemas/faqs'
import type { Tx } from '../client'
import { user } from '../schema/auth'
import { faqs } from '../schema/faqs'
import { hospitals } from '../schema/hospitals'

/**
 * Questions the first demo hospital answers for its patients on its public FAQ page. Each is
 * true of what the app does: the payment methods are those Mark Paid records, and a patient's
 * data rights are what the patient's details offer an admin.
 */
export const demoPatientFaqs: readonly {
  question: string
  answer: string
  category: FaqCategory
}[] = [
  {
    question: 'What should I bring to my appointment?',
    answer:
      'Please bring:\n\n- your earlier prescriptions and test reports\n- a list of the medicines you take\n- your ABHA number, if you have one\n- your insurance card, if your treatment is covered\n\nCome 10 minutes early on your first visit so the front desk can register you.',
    category: 'general',
  },
  {
    question: 'Which payment methods do you accept?',
    answer:
      'You can pay by cash, UPI, debit or credit card, or bank transfer. If your insurance covers the treatment, tell the front desk before your visit. You get an invoice for every payment.',
    category: 'billing',
  },
  {
    question: 'Can I get a copy of my data, or have it deleted?',
    answer:
      "Yes. Under India's Digital Personal Data Protection Act, 2023, you can ask the front desk for a copy of the data we hold about you, or for it to be erased. Invoices are kept as tax law requires, with your name removed.",
    category: 'general',
  },
]

/**
 * Issue 28, issue 40 item 9: the first demo hospital (Sanjeevani) gets its patients' FAQs, public
 * on its FAQ page, then the 8 pre-built staff how-tos, staff-only as 'Add All' adds them; the
 * other demo hospital gets none, so /faqs shows it the 'Get Started with Pre-built FAQs' card.
 * Runs in the seed's transaction; adds nothing to a hospital that has FAQs; leaves the role as
 * it found it.
 */
export async function seedDemoFaqs(
  tx: Tx,
  demo: readonly { key: string; email: string }[],
): Promise<boolean> {
  const first = demo[0]
  if (!first) return false
  await tx.execute(sql`select set_config('role', 'none', true)`)
  const [row] = await tx
    .select({ id: hospitals.id })
    .from(hospitals)
    .where(eq(hospitals.email, first.email))
  if (!row) return false
  const [admin] = await tx
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, `admin@${first.key}.demo`))
  await tx.execute(
    sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${row.id}, true)`,
  )
  const [any] = await tx.select({ id: faqs.id }).from(faqs).limit(1)
  if (!any) {
    const createdBy = admin?.id ?? null
    await tx.insert(faqs).values([
      ...demoPatientFaqs.map((f, i) => ({
        hospitalId: row.id,
        ...f,
        sortOrder: i,
        isPublic: true,
        createdBy,
      })),
      ...faqSuggestions.map((s, i) => ({
        hospitalId: row.id,
        question: s.question,
        answer: s.answer,
        category: s.category,
        sortOrder: demoPatientFaqs.length + i,
        isPublic: false,
        suggestionKey: s.key,
        createdBy,
      })),
    ])
  }
  await tx.execute(sql`select set_config('role', 'none', true)`)
  return !any
}
