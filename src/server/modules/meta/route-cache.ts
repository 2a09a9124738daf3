import type { AppDb } from '../../db/client'

/** Where the webhook sends a page's deliveries: its hospital and that hospital's app secret. */
export interface PageRoute {
  hospitalId: string
  appSecret: string
  /** Signature failures recorded on the route when it was read (kept current in-process). */
  signatureFailures: number
}

/**
 * The webhook's per-process cache of page routes (page-routes.ts reads through it); here so
 * that whatever moves a claim can drop its entry at once on this instance.
 *
 * How long a page's route and app secret are reused without asking the database: a busy page
 * costs one transaction per delivery instead of three. A withdrawn, lapsed, taken-over or
 * released route, or a new app secret, takes effect within this time on every instance (at
 * once on the instance that made the change); a job for a page no longer connected ends
 * without storing, and Meta retries a delivery refused meanwhile. Only found routes are kept,
 * so a page that has just been tested is routed at once.
 */
export const PAGE_ROUTE_TTL_MS = 5_000
const routeCaches = new WeakMap<AppDb, Map<string, PageRoute & { until: number }>>()

export function cacheOf(db: AppDb) {
  let cache = routeCaches.get(db)
  if (!cache) routeCaches.set(db, (cache = new Map()))
  return cache
}

/** Drops cached routes of these pages on this instance (after a claim moved). */
export function forgetPageRoutes(db: AppDb, pageIds: string[]): void {
  const cache = cacheOf(db)
  for (const pageId of pageIds) cache.delete(pageId)
}

/** Updates the cached failure count of a page's route, if cached for that hospital. */
export function noteSignatureFailures(
  db: AppDb,
  pageId: string,
  hospitalId: string,
  failures: number,
): void {
  const hit = cacheOf(db).get(pageId)
  if (hit?.hospitalId === hospitalId) hit.signatureFailures = failures
}
