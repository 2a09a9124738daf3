import { and, eq, gt } from 'drizzle-orm'
import { z } from 'zod'
import type { AppDb } from '../../db/client'
import { metaPages } from '../../db/schema/meta'
import { withPlatform, withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import {
  sameSecret,
  verifyMetaSignature,
  verifyTokenDigest,
} from '../../integrations/meta/signature'
import { enqueue } from '../../jobs/queue'
import { META_FETCH_LEAD_ATTEMPTS, META_FETCH_LEAD_JOB, metaLeadDedupeKey } from './meta-jobs'
import { pageRoutes } from './page-routes'
import { noteSignatureFailures } from './route-cache'
import { clearSignatureFailures, WebhookRefusal } from './webhook-refusals'
import { takeChangeQuota } from './webhook-quota'

/** Webhook bodies larger than this are refused (413) before anything reads them. */
export const META_WEBHOOK_BODY_LIMIT = 256 * 1024

const graphId = z.string().regex(/^\d{1,40}$/)
/** Meta sends ids as strings; some tools send numbers. Either becomes the digits. */
const idLike = z.union([graphId, z.number().int().nonnegative().transform(String)]).pipe(graphId)

/** Meta's leadgen delivery. Other fields (and other change fields) are allowed and ignored. */
const delivery = z.object({
  object: z.literal('page'),
  entry: z
    .array(
      z.object({
        id: idLike.optional(),
        time: z.number().optional(),
        changes: z
          .array(z.object({ field: z.string(), value: z.unknown() }))
          .max(1000)
          .default([]),
      }),
    )
    .max(1000),
})

const leadgenValue = z.object({
  leadgen_id: idLike,
  page_id: idLike,
  form_id: idLike.optional(),
  created_time: z.number().optional(),
})

export interface LeadgenChange {
  pageId: string
  leadgenId: string
  formId: string | null
}

/** A delivery as far as routing needs it: every page it names, and its leadgen changes. */
export interface ParsedDelivery {
  pageIds: string[]
  changes: LeadgenChange[]
}

/**
 * The pages and leadgen changes of a raw body, or a 400: not JSON, not Meta's page delivery,
 * a leadgen change without its ids. Pages come from the entries' ids and the changes' page ids
 * (a page subscribed to `feed` too sends entries without leadgen changes).
 */
export function parseDelivery(raw: Buffer): ParsedDelivery {
  let json: unknown
  try {
    json = JSON.parse(raw.toString('utf8'))
  } catch {
    throw new AppError('BAD_REQUEST', 'The body is not JSON')
  }
  const parsed = delivery.safeParse(json)
  if (!parsed.success) throw new AppError('BAD_REQUEST', 'Not a Meta page webhook delivery')
  const pageIds = new Set<string>()
  const changes: LeadgenChange[] = []
  for (const entry of parsed.data.entry) {
    if (entry.id) pageIds.add(entry.id)
    for (const change of entry.changes) {
      if (change.field !== 'leadgen') continue
      const value = leadgenValue.safeParse(change.value)
      if (!value.success) throw new AppError('BAD_REQUEST', 'A leadgen change lacks its ids')
      pageIds.add(value.data.page_id)
      changes.push({
        pageId: value.data.page_id,
        leadgenId: value.data.leadgen_id,
        formId: value.data.form_id ?? null,
      })
    }
  }
  return { pageIds: [...pageIds], changes }
}

/** The same answer for an unknown page and a wrong signature: no oracle for which exist. */
const refused = () => new AppError('FORBIDDEN', 'Invalid signature')

/** Garbage: counted against the sender's IP only (it names no page to count it against). */
const garbage = (error: AppError) => new WebhookRefusal(error, { ip: true })

export interface DeliveryLimits {
  /** Accepted leadgen changes per hospital and minute (META_WEBHOOK_CHANGES_PER_MINUTE). */
  changesPerMinute: number
}

/**
 * POST /api/webhooks/meta. The body is parsed (after the size cap) only to find its pages;
 * every page must be routed to a hospital and the signature must match each such hospital's
 * app secret, or nothing is stored (403, the same answer for an unknown page and a wrong
 * signature), and the refusal is counted against the pages at fault (WebhookRefusal). A
 * delivery without leadgen changes is then acknowledged. Otherwise the changes must fit the
 * per-delivery cap (413) and each hospital's per-minute quota (429, all or nothing); one
 * transaction per hospital leaves one meta.fetch-lead job per change, deduplicated by lead id.
 */
export async function acceptDelivery(
  db: AppDb,
  raw: Buffer,
  signature: string | string[] | undefined,
  limits: DeliveryLimits,
): Promise<{ accepted: number }> {
  if (typeof signature !== 'string' || !signature) {
    throw garbage(new AppError('UNAUTHENTICATED', 'X-Hub-Signature-256 is missing'))
  }
  let parsed: ParsedDelivery
  try {
    parsed = parseDelivery(raw)
  } catch (error) {
    throw error instanceof AppError ? garbage(error) : error
  }
  const { pageIds, changes } = parsed
  if (pageIds.length === 0) throw garbage(new AppError('BAD_REQUEST', 'No page in the delivery'))
  const routes = await pageRoutes(db, pageIds)
  const unknown = pageIds.filter((id) => !routes.has(id))
  if (unknown.length) throw new WebhookRefusal(refused(), { pages: unknown, ip: true })
  const secrets = new Map([...routes.values()].map((r) => [r.hospitalId, r.appSecret]))
  const failing = [...secrets].filter(([, secret]) => !verifyMetaSignature(raw, signature, secret))
  if (failing.length) {
    const hospitals = failing.map(([hospitalId]) => hospitalId)
    const pages = pageIds.filter((id) => hospitals.includes(routes.get(id)?.hospitalId ?? ''))
    throw new WebhookRefusal(refused(), {
      pages,
      hospitals,
      signatureFailed: pages.map((pageId) => ({
        pageId,
        hospitalId: routes.get(pageId)?.hospitalId ?? '',
      })),
    })
  }
  if (changes.length === 0) {
    // A page subscribed to more than leadgen: nothing to store, and nothing wrong.
    const failed = pageIds.filter((id) => (routes.get(id)?.signatureFailures ?? 0) > 0)
    await clearSignatureFailures(
      db,
      failed.map((pageId) => ({ pageId, hospitalId: routes.get(pageId)?.hospitalId ?? '' })),
    )
    return { accepted: 0 }
  }
  const perHospital = new Map<string, LeadgenChange[]>()
  for (const change of changes) {
    const hospitalId = routes.get(change.pageId)?.hospitalId ?? ''
    perHospital.set(hospitalId, [...(perHospital.get(hospitalId) ?? []), change])
  }
  const quota = await takeChangeQuota(db, perHospital, limits.changesPerMinute)
  const stored = new Set<string>()
  try {
    for (const [hospitalId, own] of perHospital) {
      await withTenant(db, { hospitalId, userId: null }, async (tx) => {
        for (const change of own) {
          await enqueue(tx, {
            name: META_FETCH_LEAD_JOB,
            hospitalId,
            payload: change,
            dedupeKey: metaLeadDedupeKey(hospitalId, change.leadgenId),
            maxAttempts: META_FETCH_LEAD_ATTEMPTS,
          })
        }
        // The secret proved itself again: failed checks before this no longer need attention.
        await tx
          .update(metaPages)
          .set({ signatureFailures: 0, signatureFailingSince: null })
          .where(and(eq(metaPages.hospitalId, hospitalId), gt(metaPages.signatureFailures, 0)))
      })
      stored.add(hospitalId)
    }
  } catch (error) {
    await quota.giveBack([...perHospital.keys()].filter((h) => !stored.has(h)))
    throw error
  }
  for (const pageId of pageIds) {
    const route = routes.get(pageId)
    if (route) noteSignatureFailures(db, pageId, route.hospitalId, 0)
  }
  return { accepted: changes.length }
}

/**
 * GET /api/webhooks/meta: Meta's subscription handshake. The verify token is looked up by its
 * SHA-256 (no tenant is known yet) and compared in constant time; the challenge is echoed.
 */
export async function verifySubscription(
  db: AppDb,
  query: Record<string, unknown>,
): Promise<string> {
  const mode = query['hub.mode']
  const token = query['hub.verify_token']
  const challenge = query['hub.challenge']
  if (
    mode !== 'subscribe' ||
    typeof token !== 'string' ||
    !token ||
    token.length > 1024 ||
    typeof challenge !== 'string' ||
    !/^[A-Za-z0-9_.-]{1,512}$/.test(challenge)
  ) {
    throw new AppError('FORBIDDEN', 'Verification failed')
  }
  const digest = verifyTokenDigest(token)
  const rows = await withPlatform(db, (tx) =>
    tx
      .select({ digest: metaPages.verifyTokenSha256 })
      .from(metaPages)
      .where(eq(metaPages.verifyTokenSha256, digest))
      .limit(1),
  )
  const stored = rows[0]?.digest
  if (!stored || !sameSecret(stored, digest)) throw new AppError('FORBIDDEN', 'Verification failed')
  return challenge
}
