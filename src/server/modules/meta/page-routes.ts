import { inArray } from 'drizzle-orm'
import type { AppDb } from '../../db/client'
import { metaPages } from '../../db/schema/meta'
import { withPlatform, withTenant } from '../../db/tenant'
import { readConnection } from './connection.service'
import { cacheOf, type PageRoute, PAGE_ROUTE_TTL_MS } from './route-cache'

/** The routes of `pageIds` that exist and have an app secret (from the cache when fresh). */
export async function pageRoutes(db: AppDb, pageIds: string[]): Promise<Map<string, PageRoute>> {
  const cache = cacheOf(db)
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
      .select({
        pageId: metaPages.pageId,
        hospitalId: metaPages.hospitalId,
        signatureFailures: metaPages.signatureFailures,
      })
      .from(metaPages)
      .where(inArray(metaPages.pageId, missing)),
  )
  if (cache.size > 10_000) cache.clear()
  for (const row of rows) {
    const connection = await withTenant(db, { hospitalId: row.hospitalId, userId: null }, (tx) =>
      readConnection(tx, row.hospitalId),
    )
    if (!connection.appSecret || connection.pageId !== row.pageId) continue
    const route = {
      hospitalId: row.hospitalId,
      appSecret: connection.appSecret,
      signatureFailures: row.signatureFailures,
    }
    cache.set(row.pageId, { ...route, until: now + PAGE_ROUTE_TTL_MS })
    found.set(row.pageId, route)
  }
  return found
}
