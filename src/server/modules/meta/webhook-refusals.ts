import { and, eq, sql } from 'drizzle-orm'
import type { AppDb } from '../../db/client'
import { metaPages } from '../../db/schema/meta'
import { withPlatform } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { countHit } from '../../http/rate-limit-store'
import { noteSignatureFailures } from './route-cache'

/**
 * Refused webhook deliveries, counted against what they name (docs/decisions/021). Meta sends
 * every hospital's deliveries from the same few addresses, so a refusal is counted against the
 * page (and the hospital it is routed to), never against the sender: one hospital's broken
 * page cannot slow down another's. Only deliveries that name no page at all (or only pages
 * nobody has claimed) also count against the sender's IP, at a higher ceiling, as a last resort
 * against floods; a correctly signed delivery of a routed page is never refused for any count.
 * Counts live in PostgreSQL (rate_limit_hits, decision 008), so they span instances; a key over
 * its limit is also remembered here until its window ends, so a flood costs no database work.
 */

/** The window every refusal count uses. */
export const WEBHOOK_REFUSAL_WINDOW_MS = 10 * 60_000
/** Refusals naming one page per window; beyond, refused deliveries naming it get 429. */
export const WEBHOOK_REFUSALS_PER_PAGE = 30
/** Refusals against one hospital's routed pages per window. */
export const WEBHOOK_REFUSALS_PER_HOSPITAL = 60
/** Refusals of deliveries naming no routed page (garbage, unclaimed pages) per sender IP. */
export const WEBHOOK_GARBAGE_PER_IP = 300

export const refusalKey = {
  page: (pageId: string) => `meta-webhook-refused:page:${pageId}`,
  hospital: (hospitalId: string) => `meta-webhook-refused:hospital:${hospitalId}`,
  ip: (ip: string) => `meta-webhook-refused:ip:${ip}`,
}

/** What a refusal is counted against. */
export interface RefusalTargets {
  /** Pages the delivery named that are at fault (unclaimed, or their signature failed). */
  pages?: string[]
  /** Hospitals whose app secret the signature did not match. */
  hospitals?: string[]
  /** Routed pages whose signature check failed: their claim row counts the failures. */
  signatureFailed?: { pageId: string; hospitalId: string }[]
  /** Count against the sender's IP too (nothing routed named). */
  ip?: boolean
}

/** A refused delivery: the answer (4xx) and what it counts against. */
export class WebhookRefusal extends Error {
  override name = 'WebhookRefusal'
  constructor(
    readonly error: AppError,
    readonly targets: RefusalTargets,
  ) {
    super(error.message)
  }
}

export interface RefusalAnswer {
  error: AppError
  /** Seconds, for Retry-After, when the answer is a 429. */
  retryAfter?: number
}

interface Log {
  warn: (obj: object, msg: string) => void
}

/** The refusal counter of one app instance (its in-process memory of keys over their limit). */
export function createRefusalCounter(db: AppDb, log: Log) {
  const blockedUntil = new Map<string, number>()
  const limited = (until: number): RefusalAnswer => ({
    error: new AppError(
      'RATE_LIMITED',
      'Too many refused deliveries for this page. Try again later.',
    ),
    retryAfter: Math.max(1, Math.ceil((until - Date.now()) / 1000)),
  })

  function block(key: string, ttlMs: number): void {
    if (blockedUntil.size > 10_000) {
      for (const [k, until] of blockedUntil) if (until <= Date.now()) blockedUntil.delete(k)
    }
    blockedUntil.set(key, Date.now() + ttlMs)
  }

  return {
    /** Counts a refusal and says how to answer it: its own 4xx, or 429 once over a limit. */
    async refuse(refusal: WebhookRefusal, ip: string): Promise<RefusalAnswer> {
      const { targets } = refusal
      const limits = [
        ...(targets.pages ?? []).map((p) => ({
          key: refusalKey.page(p),
          max: WEBHOOK_REFUSALS_PER_PAGE,
        })),
        ...(targets.hospitals ?? []).map((h) => ({
          key: refusalKey.hospital(h),
          max: WEBHOOK_REFUSALS_PER_HOSPITAL,
        })),
        ...(targets.ip ? [{ key: refusalKey.ip(ip), max: WEBHOOK_GARBAGE_PER_IP }] : []),
      ]
      const now = Date.now()
      const until = Math.max(0, ...limits.map((l) => blockedUntil.get(l.key) ?? 0))
      if (until > now) return limited(until)
      try {
        let over = 0
        for (const { key, max } of limits) {
          const { hits, ttlMs } = await countHit(db, key, WEBHOOK_REFUSAL_WINDOW_MS)
          if (hits >= max) block(key, ttlMs)
          if (hits > max) over = Math.max(over, Date.now() + ttlMs)
        }
        for (const failed of targets.signatureFailed ?? []) await countSignatureFailure(db, failed)
        if (over) return limited(over)
      } catch (error) {
        log.warn({ err: error }, 'counting a refused webhook delivery failed')
      }
      return { error: refusal.error }
    },
  }
}

/** One more failed signature check on the page's claim row (only if still that hospital's). */
async function countSignatureFailure(
  db: AppDb,
  failed: { pageId: string; hospitalId: string },
): Promise<void> {
  const [row] = await withPlatform(db, (tx) =>
    tx
      .update(metaPages)
      .set({
        signatureFailures: sql`${metaPages.signatureFailures} + 1`,
        signatureFailingSince: sql`coalesce(${metaPages.signatureFailingSince}, now())`,
      })
      .where(and(eq(metaPages.pageId, failed.pageId), eq(metaPages.hospitalId, failed.hospitalId)))
      .returning({ failures: metaPages.signatureFailures }),
  )
  if (row) noteSignatureFailures(db, failed.pageId, failed.hospitalId, row.failures)
}

/**
 * A correctly signed delivery of these pages (one without leadgen changes; deliveries with
 * changes reset the count in their enqueue transaction): their failure counts start over.
 */
export async function clearSignatureFailures(
  db: AppDb,
  pages: { pageId: string; hospitalId: string }[],
): Promise<void> {
  for (const { pageId, hospitalId } of pages) {
    await withPlatform(db, (tx) =>
      tx
        .update(metaPages)
        .set({ signatureFailures: 0, signatureFailingSince: null })
        .where(and(eq(metaPages.pageId, pageId), eq(metaPages.hospitalId, hospitalId))),
    )
    noteSignatureFailures(db, pageId, hospitalId, 0)
  }
}
