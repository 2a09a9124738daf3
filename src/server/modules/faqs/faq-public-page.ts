import { and, eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { faqAnswerToHtml } from '../../../shared/faq-format'
import {
  FAQ_SEARCH_MAX,
  type Faq,
  faqCategories,
  faqCategoryLabels,
} from '../../../shared/schemas/faqs'
import { publicRoute } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { faqs } from '../../db/schema/faqs'
import { hospitals } from '../../db/schema/hospitals'
import { withPlatform, withTenant } from '../../db/tenant'
import { faqFilter, faqOrder, toFaq } from './faqs.service'
import { faqPageHtml, faqNotFoundHtml } from './faq-public-html'

/**
 * GET /h/:slug/faq (issue 28): a hospital's public FAQs as one server-rendered HTML page, no
 * sign-in and no JavaScript (the search is a GET form, ?q=), so the app's CSP holds unchanged.
 * It shows the hospital's name and its FAQs marked public, nothing else of the tenant; every
 * character of a question or answer is escaped (src/shared/faq-format.ts).
 */

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/

export interface PublicFaqHospital {
  id: string
  name: string
  slug: string
}

/** The hospital behind a slug, or null (unknown, malformed or cancelled: all look the same). */
export async function faqHospitalBySlug(
  db: AppDb,
  slug: string,
): Promise<PublicFaqHospital | null> {
  if (slug.length > 60 || !SLUG.test(slug)) return null
  const [row] = await withPlatform(db, (tx) =>
    tx
      .select({
        id: hospitals.id,
        name: hospitals.name,
        slug: hospitals.slug,
        subscription: hospitals.subscriptionStatus,
      })
      .from(hospitals)
      .where(eq(hospitals.slug, slug)),
  )
  if (!row?.slug || row.subscription === 'cancelled') return null
  return { id: row.id, name: row.name, slug: row.slug }
}

/** Control characters and UTF-16 surrogates without their pair: dropped from a search. */
const UNSEARCHABLE =
  // eslint-disable-next-line no-control-regex -- control characters are exactly what we drop
  /[\u0000-\u001f\u007f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** A search as typed in the form: one string, no control characters or lone surrogates, capped. */
export function publicSearchText(value: unknown): string {
  const first = Array.isArray(value) ? (value as unknown[])[0] : value
  if (typeof first !== 'string') return ''
  return first.replace(UNSEARCHABLE, ' ').trim().slice(0, FAQ_SEARCH_MAX).trim()
}

/** The hospital's public FAQs matching the search, in the list's order. */
export async function publicFaqs(db: AppDb, hospitalId: string, q: string): Promise<Faq[]> {
  const rows = await withTenant(db, { hospitalId, userId: null }, (tx) =>
    tx
      .select()
      .from(faqs)
      .where(and(eq(faqs.isPublic, true), faqFilter({ q: q || undefined })))
      .orderBy(...faqOrder),
  )
  return rows.map(toFaq)
}

/** The FAQs by category, in the spec's category order, empty categories left out. */
export function groupByCategory(list: readonly Faq[]) {
  return faqCategories
    .map((category) => ({
      category,
      label: faqCategoryLabels[category],
      faqs: list.filter((f) => f.category === category),
    }))
    .filter((g) => g.faqs.length > 0)
}

export function faqPublicPageRoute(app: FastifyInstance, { db }: { db: AppDb }): void {
  app.get('/h/:slug/faq', { config: publicRoute }, async (req, reply) => {
    const { slug } = req.params as { slug: string }
    const hospital = await faqHospitalBySlug(db, slug)
    reply.type('text/html; charset=utf-8').header('x-robots-tag', 'noarchive')
    if (!hospital) {
      return reply.status(404).header('cache-control', 'no-store').send(faqNotFoundHtml())
    }
    const q = publicSearchText((req.query as Record<string, unknown> | undefined)?.q)
    const list = await publicFaqs(db, hospital.id, q)
    const html = faqPageHtml({
      hospitalName: hospital.name,
      path: `/h/${hospital.slug}/faq`,
      q,
      groups: groupByCategory(list).map((g) => ({
        ...g,
        faqs: g.faqs.map((f) => ({
          id: f.id,
          question: f.question,
          answerHtml: faqAnswerToHtml(f.answer),
        })),
      })),
      count: list.length,
    })
    // Shared caches may keep it a minute, and serve it stale for five while refreshing: an
    // edit shows within a minute, and a link shared on WhatsApp does not hit the database each time.
    return reply
      .status(200)
      .header('cache-control', 'public, max-age=60, stale-while-revalidate=300')
      .send(html)
  })
}
