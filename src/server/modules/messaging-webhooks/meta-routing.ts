import { and, eq, inArray } from 'drizzle-orm'
import type { AppDb } from '../../db/client'
import { messagingRoutes } from '../../db/schema/messaging'
import { withPlatform } from '../../db/tenant'
import { sameSecret } from '../../integrations/meta/signature'
import { webhookConfig } from './config-cache'

/**
 * Which hospital a WhatsApp Cloud API delivery belongs to. Its changes name the business phone
 * number (metadata.phone_number_id), routed by messaging_routes (provider 'meta', written by
 * Settings when a hospital saves its WhatsApp set-up). Found routes are reused for a few
 * seconds (a busy number then costs no lookup per status callback).
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
export async function phoneRoutes(db: AppDb, phoneIds: string[]): Promise<Map<string, string>> {
  const cache = cacheOf(db)
  const now = Date.now()
  const found = new Map<string, string>()
  const missing: string[] = []
  for (const phoneId of phoneIds) {
    const hit = cache.get(phoneId)
    if (hit && hit.until > now) found.set(phoneId, hit.hospitalId)
    else missing.push(phoneId)
  }
  if (!missing.length) return found
  const rows = await withPlatform(db, (tx) =>
    tx
      .select({ externalId: messagingRoutes.externalId, hospitalId: messagingRoutes.hospitalId })
      .from(messagingRoutes)
      .where(
        and(eq(messagingRoutes.provider, 'meta'), inArray(messagingRoutes.externalId, missing)),
      ),
  )
  if (cache.size > 10_000) cache.clear()
  for (const row of rows) {
    cache.set(row.externalId, { hospitalId: row.hospitalId, until: now + META_ROUTE_TTL_MS })
    found.set(row.externalId, row.hospitalId)
  }
  return found
}

/** At most this many hospitals are looked at for a handshake or a template update. */
const MAX_SCAN = 1_000

/** Hospitals with a routed Meta WhatsApp number (candidates for what names no number). */
async function metaHospitals(db: AppDb): Promise<string[]> {
  const rows = await withPlatform(db, (tx) =>
    tx
      .selectDistinct({ hospitalId: messagingRoutes.hospitalId })
      .from(messagingRoutes)
      .where(eq(messagingRoutes.provider, 'meta'))
      .limit(MAX_SCAN),
  )
  return rows.map((r) => r.hospitalId)
}

/**
 * The hospital whose WhatsApp Business Account this is (template status updates name only
 * the account). Rare events: the hospitals with a Meta number are read (their set-up cached).
 */
export async function hospitalOfBusinessAccount(
  db: AppDb,
  businessAccountId: string,
): Promise<string | null> {
  for (const hospitalId of await metaHospitals(db)) {
    const found = await webhookConfig(db, hospitalId)
    const wa = found?.config.whatsapp
    if (wa?.provider === 'meta' && wa.businessAccountId === businessAccountId) return hospitalId
  }
  return null
}

/** The hospital that configured this hub.verify_token (the subscription handshake). */
export async function hospitalOfVerifyToken(db: AppDb, token: string): Promise<string | null> {
  for (const hospitalId of await metaHospitals(db)) {
    const found = await webhookConfig(db, hospitalId)
    if (found?.verifyToken && sameSecret(found.verifyToken, token)) return hospitalId
  }
  return null
}
