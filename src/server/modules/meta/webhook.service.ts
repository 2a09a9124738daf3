import { eq, inArray } from 'drizzle-orm'
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
import { readConnection } from './connection.service'
import { META_FETCH_LEAD_ATTEMPTS, META_FETCH_LEAD_JOB, metaLeadDedupeKey } from './meta-jobs'

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

const refused = () => new AppError('FORBIDDEN', 'Invalid signature')

/** The leadgen changes of a raw body, or a 400: not JSON, or not Meta's page delivery. */
export function parseDelivery(raw: Buffer): LeadgenChange[] {
  let json: unknown
  try {
    json = JSON.parse(raw.toString('utf8'))
  } catch {
    throw new AppError('BAD_REQUEST', 'The body is not JSON')
  }
  const parsed = delivery.safeParse(json)
  if (!parsed.success) throw new AppError('BAD_REQUEST', 'Not a Meta page webhook delivery')
  const changes: LeadgenChange[] = []
  for (const entry of parsed.data.entry) {
    for (const change of entry.changes) {
      if (change.field !== 'leadgen') continue
      const value = leadgenValue.safeParse(change.value)
      if (!value.success) throw new AppError('BAD_REQUEST', 'A leadgen change lacks its ids')
      changes.push({
        pageId: value.data.page_id,
        leadgenId: value.data.leadgen_id,
        formId: value.data.form_id ?? null,
      })
    }
  }
  return changes
}

interface PageRoute {
  hospitalId: string
  appSecret: string
}

/**
 * How long a page's route and app secret are reused without asking the database: a busy page
 * costs one transaction per delivery instead of three. A withdrawn route or a new app secret
 * takes effect within this time (a job for a page no longer connected ends without storing;
 * Meta retries a delivery refused meanwhile). Only found routes are kept, so a page that has
 * just been tested is routed at once.
 */
export const PAGE_ROUTE_TTL_MS = 5_000
const routeCaches = new WeakMap<AppDb, Map<string, PageRoute & { until: number }>>()

/** The routes of `pageIds` that exist and have an app secret (from the cache when fresh). */
async function pageRoutes(db: AppDb, pageIds: string[]): Promise<Map<string, PageRoute>> {
  let cache = routeCaches.get(db)
  if (!cache) routeCaches.set(db, (cache = new Map()))
  const now = Date.now()
  const found = new Map<string, PageRoute>()
  const missing: string[] = []
  for (const pageId of pageIds) {
    const hit = cache.get(pageId)
    if (hit && hit.until > now) found.set(pageId, hit)
    else missing.push(pageId)
  }
  if (missing.length === 0) return found
  const rows = await withPlatform(db, (tx) =>
    tx
      .select({ pageId: metaPages.pageId, hospitalId: metaPages.hospitalId })
      .from(metaPages)
      .where(inArray(metaPages.pageId, missing)),
  )
  if (cache.size > 10_000) cache.clear()
  for (const row of rows) {
    const connection = await withTenant(db, { hospitalId: row.hospitalId, userId: null }, (tx) =>
      readConnection(tx, row.hospitalId),
    )
    if (!connection.appSecret || connection.pageId !== row.pageId) continue
    const route = { hospitalId: row.hospitalId, appSecret: connection.appSecret }
    cache.set(row.pageId, { ...route, until: now + PAGE_ROUTE_TTL_MS })
    found.set(row.pageId, route)
  }
  return found
}

/**
 * POST /api/webhooks/meta. The body is parsed (after the size cap) only to find its pages;
 * every page must belong to a hospital and the signature must match each such hospital's app
 * secret, or nothing is stored (403, the same answer for an unknown page and a wrong
 * signature). Then one transaction per hospital leaves one meta.fetch-lead job per change,
 * deduplicated by lead id, so a replayed delivery adds nothing.
 */
export async function acceptDelivery(
  db: AppDb,
  raw: Buffer,
  signature: string | string[] | undefined,
): Promise<{ accepted: number }> {
  if (typeof signature !== 'string' || !signature) {
    throw new AppError('UNAUTHENTICATED', 'X-Hub-Signature-256 is missing')
  }
  const changes = parseDelivery(raw)
  const pageIds = [...new Set(changes.map((c) => c.pageId))]
  if (pageIds.length === 0) {
    // Nothing to store; still only a signed delivery of a known page is acknowledged.
    throw new AppError('BAD_REQUEST', 'No leadgen changes in the delivery')
  }
  const routes = await pageRoutes(db, pageIds)
  if (routes.size !== pageIds.length) throw refused()
  const secrets = new Map([...routes.values()].map((r) => [r.hospitalId, r.appSecret]))
  for (const secret of secrets.values()) {
    if (!verifyMetaSignature(raw, signature, secret)) throw refused()
  }
  for (const hospitalId of secrets.keys()) {
    await withTenant(db, { hospitalId, userId: null }, async (tx) => {
      for (const change of changes) {
        if (routes.get(change.pageId)?.hospitalId !== hospitalId) continue
        await enqueue(tx, {
          name: META_FETCH_LEAD_JOB,
          hospitalId,
          payload: change,
          dedupeKey: metaLeadDedupeKey(hospitalId, change.leadgenId),
          maxAttempts: META_FETCH_LEAD_ATTEMPTS,
        })
      }
    })
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
