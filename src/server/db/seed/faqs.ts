import { eq, sql } from 'drizzle-orm'
import { faqSuggestions } from '../../../shared/faq-suggestions'
import type { Tx } from '../client'
import { user } from '../schema/auth'
import { faqs } from '../schema/faqs'
import { hospitals } from '../schema/hospitals'

/**
 * Issue 28: the 8 pre-built FAQs for the first demo hospital (Sanjeevani), the last one kept
 * private (an internal note for staff), so its public page has something to show; the other demo
 * hospital gets none, so /faqs shows it the 'Get Started with Pre-built FAQs' card. Runs in
 * the seed's transaction; adds nothing to a hospital that has FAQs; leaves the role as it found it.
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
    await tx.insert(faqs).values(
      faqSuggestions.map((s, i) => ({
        hospitalId: row.id,
        question: s.question,
        answer: s.answer,
        category: s.category,
        sortOrder: i,
        isPublic: s.key !== 'team-members',
        suggestionKey: s.key,
        createdBy: admin?.id ?? null,
      })),
    )
  }
  await tx.execute(sql`select set_config('role', 'none', true)`)
  return !any
}
