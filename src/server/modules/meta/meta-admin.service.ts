import { count, desc, eq, sql } from 'drizzle-orm'
import {
  META_PAGES_PAGE_SIZE,
  type MetaPageClaimList,
  metaWebhookMessages,
  type ReleasedMetaPage,
} from '../../../shared/schemas/meta'
import type { AppDb } from '../../db/client'
import { hospitals } from '../../db/schema/hospitals'
import { metaConnections, metaPages } from '../../db/schema/meta'
import { rateLimitHits } from '../../db/schema/rate-limits'
import { withPlatform, withTenant } from '../../db/tenant'
import { notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { SIGNATURE_FAILURES_FOR_ATTENTION } from './connection.service'
import { forgetPageRoutes } from './route-cache'
import { refusalKey } from './webhook-refusals'

/**
 * The platform's view of Meta page claims (super admins only, docs/decisions/021): which
 * hospital each page's webhook reaches, since when, when its token last proved it, and whether
 * its deliveries keep failing the signature check. A claim can be released.
 */
export async function listPageClaims(opts: {
  db: AppDb
  limit?: number | undefined
  offset?: number | undefined
}): Promise<MetaPageClaimList> {
  const refusals = sql<number>`coalesce((
    select ${rateLimitHits.hits} from ${rateLimitHits}
    where ${rateLimitHits.key} = ${refusalKey.page('')} || ${metaPages.pageId}
      and ${rateLimitHits.expiresAt} > now()), 0)::int`
  return withPlatform(opts.db, async (tx) => {
    const rows = await tx
      .select({
        pageId: metaPages.pageId,
        hospitalId: metaPages.hospitalId,
        hospitalName: hospitals.name,
        claimedAt: metaPages.claimedAt,
        lastProvenAt: metaPages.lastProvenAt,
        signatureFailures: metaPages.signatureFailures,
        recentRefusals: refusals,
      })
      .from(metaPages)
      .innerJoin(hospitals, eq(hospitals.id, metaPages.hospitalId))
      .orderBy(desc(metaPages.claimedAt), metaPages.pageId)
      .limit(opts.limit ?? META_PAGES_PAGE_SIZE)
      .offset(opts.offset ?? 0)
    const [total] = await tx.select({ n: count() }).from(metaPages)
    return {
      items: rows.map((r) => ({
        ...r,
        claimedAt: r.claimedAt.toISOString(),
        lastProvenAt: r.lastProvenAt.toISOString(),
        recentRefusals: Number(r.recentRefusals),
        needsAttention: r.signatureFailures >= SIGNATURE_FAILURES_FOR_ATTENTION,
      })),
      total: total?.n ?? 0,
    }
  })
}

/**
 * DELETE /api/admin/meta-pages/:pageId: the page's webhook no longer reaches its hospital
 * until the hospital (or another one) proves the page again. The hospital's Settings say so,
 * and its audit trail names the super admin who did it.
 */
export async function releasePageClaim(opts: {
  db: AppDb
  pageId: string
  userId: string
}): Promise<ReleasedMetaPage> {
  const [released] = await withPlatform(opts.db, (tx) =>
    tx
      .delete(metaPages)
      .where(eq(metaPages.pageId, opts.pageId))
      .returning({ hospitalId: metaPages.hospitalId }),
  )
  if (!released) throw notFound('Meta page claim')
  forgetPageRoutes(opts.db, [opts.pageId])
  const { hospitalId } = released
  await withTenant(opts.db, { hospitalId, userId: opts.userId }, async (tx) => {
    await tx
      .update(metaConnections)
      .set({ webhookError: metaWebhookMessages.released, updatedAt: new Date() })
      .where(eq(metaConnections.hospitalId, hospitalId))
    await recordAudit(tx, {
      hospitalId,
      actorUserId: opts.userId,
      action: 'meta.page_released',
      entityType: 'meta_connection',
      entityId: null,
      summary: `A platform super admin released Meta page ${opts.pageId}: its webhook deliveries no longer reach this hospital until Test Connection proves the page again`,
    })
  })
  return { pageId: opts.pageId, hospitalId }
}
