import { and, asc, count, eq, ilike, max, or, type SQL } from 'drizzle-orm'
import { faqSuggestions } from '../../../shared/faq-suggestions'
import {
  type AddSuggestedResult,
  FAQ_LIMIT,
  FAQ_SORT_ORDER_MAX,
  type Faq,
  type FaqList,
  type FaqListQuery,
  type ReorderFaqsInput,
  type createFaqInput,
  type updateFaqInput,
} from '../../../shared/schemas/faqs'
import type { z } from 'zod'
import type { AppDb, Tx } from '../../db/client'
import { faqs } from '../../db/schema/faqs'
import { hospitals } from '../../db/schema/hospitals'
import { withPlatform, withTenant } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'

/**
 * FAQ Management (issue 28): a hospital's FAQs, in its tenant transaction; every change writes
 * its audit row in the same transaction. Questions and answers are stored as typed (HTML tags
 * were refused by the schema) and escaped wherever they are shown (docs/decisions/035).
 */

export interface FaqOptions {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
}

type FaqRow = typeof faqs.$inferSelect

export function toFaq(row: FaqRow): Faq {
  return {
    id: row.id,
    question: row.question,
    answer: row.answer,
    category: row.category,
    sortOrder: row.sortOrder,
    isPublic: row.isPublic,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

/** LIKE's wildcards and escape character taken literally. */
export const likeLiteral = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** The list's order: sortOrder, then the oldest first (spec: "ordered by sortOrder"). */
export const faqOrder = [asc(faqs.sortOrder), asc(faqs.createdAt), asc(faqs.id)]

export function faqFilter(query: FaqListQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = []
  if (query.q) {
    const pattern = likeLiteral(query.q)
    conditions.push(or(ilike(faqs.question, pattern), ilike(faqs.answer, pattern)))
  }
  if (query.category && query.category !== 'all') conditions.push(eq(faqs.category, query.category))
  return conditions.length ? and(...conditions) : undefined
}

async function publicPathOf(db: AppDb, hospitalId: string): Promise<string | null> {
  const [row] = await withPlatform(db, (tx) =>
    tx.select({ slug: hospitals.slug }).from(hospitals).where(eq(hospitals.id, hospitalId)),
  )
  return row?.slug ? `/h/${row.slug}/faq` : null
}

/** GET /api/faqs: the hospital's FAQs matching the search and category, in order. */
export async function listFaqs(opts: FaqOptions & { query: FaqListQuery }): Promise<FaqList> {
  const { rows, total } = await withTenant(opts.db, opts, async (tx) => {
    const rows = await tx
      .select()
      .from(faqs)
      .where(faqFilter(opts.query))
      .orderBy(...faqOrder)
    const [all] = await tx.select({ n: count() }).from(faqs)
    return { rows, total: all?.n ?? 0 }
  })
  return { faqs: rows.map(toFaq), total, publicPath: await publicPathOf(opts.db, opts.hospitalId) }
}

async function audit(tx: Tx, opts: FaqOptions, action: string, id: string | null, summary: string) {
  await recordAudit(tx, {
    hospitalId: opts.hospitalId,
    actorUserId: opts.userId,
    impersonatorUserId: opts.impersonatorUserId,
    action,
    entityType: 'faq',
    entityId: id,
    summary,
  })
}

const clip = (text: string) => (text.length > 80 ? `${text.slice(0, 79)}…` : text)

const LIMIT_MESSAGE = `A hospital can keep at most ${FAQ_LIMIT} FAQs. Delete some before adding more.`

async function countFaqs(tx: Tx): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(faqs)
  return row?.n ?? 0
}

/** POST /api/faqs */
export async function createFaq(
  opts: FaqOptions & { values: z.output<typeof createFaqInput> },
): Promise<Faq> {
  const row = await withTenant(opts.db, opts, async (tx) => {
    if ((await countFaqs(tx)) >= FAQ_LIMIT) throw new AppError('CONFLICT', LIMIT_MESSAGE)
    const [created] = await tx
      .insert(faqs)
      .values({ hospitalId: opts.hospitalId, ...opts.values, createdBy: opts.userId })
      .returning()
    if (!created) throw new Error('faq insert returned nothing')
    await audit(tx, opts, 'faq.created', created.id, `FAQ "${clip(created.question)}" created`)
    return created
  })
  return toFaq(row)
}

/** PUT /api/faqs/:id: another hospital's id is 404 (RLS hides it). */
export async function updateFaq(
  opts: FaqOptions & { id: string; values: z.output<typeof updateFaqInput> },
): Promise<Faq> {
  const changes = Object.fromEntries(
    Object.entries(opts.values).filter(([, v]) => v !== undefined),
  ) as Partial<FaqRow>
  const row = await withTenant(opts.db, opts, async (tx) => {
    const [updated] = await tx
      .update(faqs)
      .set({ ...changes, updatedAt: new Date() })
      .where(and(eq(faqs.hospitalId, opts.hospitalId), eq(faqs.id, opts.id)))
      .returning()
    if (!updated) throw notFound('FAQ')
    await audit(tx, opts, 'faq.updated', updated.id, `FAQ "${clip(updated.question)}" updated`)
    return updated
  })
  return toFaq(row)
}

/** DELETE /api/faqs/:id */
export async function deleteFaq(opts: FaqOptions & { id: string }): Promise<void> {
  await withTenant(opts.db, opts, async (tx) => {
    const [deleted] = await tx
      .delete(faqs)
      .where(and(eq(faqs.hospitalId, opts.hospitalId), eq(faqs.id, opts.id)))
      .returning({ id: faqs.id, question: faqs.question })
    if (!deleted) throw notFound('FAQ')
    await audit(tx, opts, 'faq.deleted', deleted.id, `FAQ "${clip(deleted.question)}" deleted`)
  })
}

export const REORDER_MISMATCH =
  'The order must list every FAQ of this hospital exactly once. Reload the page and try again.'

/** PUT /api/faqs/order: sortOrder = position, for all of the hospital's FAQs in one transaction. */
export async function reorderFaqs(
  opts: FaqOptions & { input: ReorderFaqsInput },
): Promise<FaqList> {
  const { ids } = opts.input
  const rows = await withTenant(opts.db, opts, async (tx) => {
    // Locks the hospital's FAQs, so a concurrent add or delete waits for this order.
    const current = await tx.select({ id: faqs.id }).from(faqs).for('update')
    const known = new Set(current.map((r) => r.id))
    if (current.length !== ids.length || !ids.every((id) => known.has(id)))
      throw new AppError('VALIDATION', REORDER_MISMATCH, [
        { path: 'ids', message: REORDER_MISMATCH },
      ])
    const now = new Date()
    for (const [index, id] of ids.entries()) {
      await tx
        .update(faqs)
        .set({ sortOrder: index, updatedAt: now })
        .where(and(eq(faqs.hospitalId, opts.hospitalId), eq(faqs.id, id)))
    }
    await audit(tx, opts, 'faq.reordered', null, `FAQs reordered (${ids.length})`)
    return tx
      .select()
      .from(faqs)
      .orderBy(...faqOrder)
  })
  return {
    faqs: rows.map(toFaq),
    total: rows.length,
    publicPath: await publicPathOf(opts.db, opts.hospitalId),
  }
}

/**
 * POST /api/faqs/suggested ('Add All'): the 8 pre-built FAQs after the existing ones, staff-only
 * (they are how-tos for the clinic's team, never shown on the public page until an admin makes
 * one public). Each is keyed, so calling it twice (or two admins at once) adds each at most once.
 */
export async function addSuggestedFaqs(opts: FaqOptions): Promise<AddSuggestedResult> {
  return withTenant(opts.db, opts, async (tx) => {
    const [last] = await tx.select({ top: max(faqs.sortOrder), n: count() }).from(faqs)
    if ((last?.n ?? 0) + faqSuggestions.length > FAQ_LIMIT)
      throw new AppError('CONFLICT', LIMIT_MESSAGE)
    const after = last?.n ? (last.top ?? 0) + 1 : 0
    const base = Math.min(after, FAQ_SORT_ORDER_MAX - faqSuggestions.length)
    const added = await tx
      .insert(faqs)
      .values(
        faqSuggestions.map((s, i) => ({
          hospitalId: opts.hospitalId,
          question: s.question,
          answer: s.answer,
          category: s.category,
          sortOrder: base + i,
          isPublic: false,
          suggestionKey: s.key,
          createdBy: opts.userId,
        })),
      )
      .onConflictDoNothing()
      .returning()
    if (added.length)
      await audit(
        tx,
        opts,
        'faq.suggested_added',
        null,
        `${added.length} pre-built staff FAQs added`,
      )
    return { added: added.length, faqs: added.map(toFaq) }
  })
}
