import { and, eq, inArray } from 'drizzle-orm'
import type { AppDb } from '../../db/client'
import {
  messagingRoutes,
  WHATSAPP_ACCOUNT_ROUTE,
  WHATSAPP_PHONE_ROUTE,
} from '../../db/schema/messaging'
import { withPlatform } from '../../db/tenant'
import { sameSecret, verifyTokenDigest } from '../../integrations/meta/signature'

/**
 * Which hospital a WhatsApp Cloud API delivery belongs to, by the index of proven ids
 * (messaging_routes, issue 39): its changes name the business phone number
 * (metadata.phone_number_id, provider 'meta') or, for template status updates, the business
 * account (provider 'meta-waba'), each written when the hospital's own token proved it with
 * Graph. Routing reads no hospital's settings; only the one hospital the index names is then
 * decrypted to check the signature. Found routes are reused for a few seconds (a busy number
 * then costs no lookup per status callback); a save or takeover drops them on its instance.
 */
export const META_ROUTE_TTL_MS = 5_000
type Cached = { hospitalId: string; until: number }
const routeCaches = new WeakMap<AppDb, Map<string, Cached>>()

function cacheOf(db: AppDb): Map<string, Cached> {
  let cache = routeCaches.get(db)
  if (!cache) routeCaches.set(db, (cache = new Map()))
  return cache
}

/** phone_number_id → hospital id, for the ids that are routed. */
export function phoneRoutes(db: AppDb, phoneIds: string[]): Promise<Map<string, string>> {
  return routesOf(db, WHATSAPP_PHONE_ROUTE, phoneIds)
}

/** Drops routes from this instance's cache (moved, taken over or withdrawn by a save). */
export function forgetWhatsappRoutes(db: AppDb, externalIds: string[]): void {
  const cache = cacheOf(db)
  for (const id of externalIds) {
    cache.delete(`${WHATSAPP_PHONE_ROUTE}:${id}`)
    cache.delete(`${WHATSAPP_ACCOUNT_ROUTE}:${id}`)
  }
}

/** external id → hospital id, for the ids of this kind that are routed (cached briefly). */
async function routesOf(
  db: AppDb,
  provider: string,
  externalIds: string[],
): Promise<Map<string, string>> {
  const cache = cacheOf(db)
  const now = Date.now()
  const found = new Map<string, string>()
  const missing: string[] = []
  for (const id of externalIds) {
    const hit = cache.get(`${provider}:${id}`)
    if (hit && hit.until > now) found.set(id, hit.hospitalId)
    else missing.push(id)
  }
  if (!missing.length) return found
  const rows = await withPlatform(db, (tx) =>
    tx
      .select({ externalId: messagingRoutes.externalId, hospitalId: messagingRoutes.hospitalId })
      .from(messagingRoutes)
      .where(
        and(eq(messagingRoutes.provider, provider), inArray(messagingRoutes.externalId, missing)),
      ),
  )
  if (cache.size > 10_000) cache.clear()
  for (const row of rows) {
    cache.set(`${provider}:${row.externalId}`, {
      hospitalId: row.hospitalId,
      until: now + META_ROUTE_TTL_MS,
    })
    found.set(row.externalId, row.hospitalId)
  }
  return found
}

/**
 * The hospital whose WhatsApp Business Account this is (template status updates name only the
 * account): its row in the index of proven ids, written when the hospital's token proved the
 * account with Graph (messaging-settings/whatsapp-ids.ts). No hospital's secret is read.
 */
export async function hospitalOfBusinessAccount(
  db: AppDb,
  businessAccountId: string,
): Promise<string | null> {
  const found = await routesOf(db, WHATSAPP_ACCOUNT_ROUTE, [businessAccountId])
  return found.get(businessAccountId) ?? null
}

/**
 * The hospital that configured this hub.verify_token (the subscription handshake): found by
 * the token's SHA-256, stored beside the hospital's proven number (one indexed lookup, no
 * secret decrypted, whatever the number of hospitals).
 */
export async function hospitalOfVerifyToken(db: AppDb, token: string): Promise<string | null> {
  const digest = verifyTokenDigest(token)
  const rows = await withPlatform(db, (tx) =>
    tx
      .select({ hospitalId: messagingRoutes.hospitalId, digest: messagingRoutes.verifyTokenSha256 })
      .from(messagingRoutes)
      .where(
        and(
          eq(messagingRoutes.provider, WHATSAPP_PHONE_ROUTE),
          eq(messagingRoutes.verifyTokenSha256, digest),
        ),
      )
      .limit(1),
  )
  const row = rows[0]
  return row?.digest && sameSecret(row.digest, digest) ? row.hospitalId : null
}
