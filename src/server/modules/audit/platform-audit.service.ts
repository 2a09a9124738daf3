import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm'
import type { PlatformAction, PlatformActivityList } from '../../../shared/schemas/platform'
import type { AppDb, Tx } from '../../db/client'
import { user } from '../../db/schema/auth'
import { auditEvents } from '../../db/schema/audit'
import { hospitals } from '../../db/schema/hospitals'
import { platformAuditEvents } from '../../db/schema/platform'
import { withPlatform } from '../../db/tenant'

export interface PlatformAuditEntry {
  /** The super admin who acted. */
  actorUserId: string
  /** The hospital the action concerns, when there is one. */
  hospitalId: string | null
  action: PlatformAction
  entityType: string
  entityId: string | null
  summary: string
}

/**
 * Writes the platform audit row and, when a hospital is concerned, the same entry in that
 * hospital's own audit trail (so its admin sees what the platform did), both in the caller's
 * platform transaction. Call it last: for the hospital's row the transaction switches to
 * app_user with the hospital set (its forced RLS policy applies), until it ends.
 */
export async function recordPlatformAudit(tx: Tx, entry: PlatformAuditEntry): Promise<void> {
  await tx.insert(platformAuditEvents).values(entry)
  if (!entry.hospitalId) return
  await tx.execute(
    sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${entry.hospitalId}, true)`,
  )
  await tx.insert(auditEvents).values({
    hospitalId: entry.hospitalId,
    actorUserId: entry.actorUserId,
    impersonatorUserId: null,
    action: `platform.${entry.action}`,
    entityType: entry.entityType,
    entityId: entry.entityId,
    summary: entry.summary,
  })
}

/** The platform audit trail, newest first, optionally for one hospital and one action. */
export async function listPlatformActivities(opts: {
  db: AppDb
  hospitalId?: string | undefined
  action?: PlatformAction | undefined
  limit: number
  offset: number
}): Promise<PlatformActivityList> {
  const filters: SQL[] = []
  if (opts.hospitalId) filters.push(eq(platformAuditEvents.hospitalId, opts.hospitalId))
  if (opts.action) filters.push(eq(platformAuditEvents.action, opts.action))
  const where = filters.length ? and(...filters) : undefined
  return withPlatform(opts.db, async (tx) => {
    const rows = await tx
      .select({
        id: platformAuditEvents.id,
        action: platformAuditEvents.action,
        description: platformAuditEvents.summary,
        createdAt: platformAuditEvents.createdAt,
        hospitalId: platformAuditEvents.hospitalId,
        hospitalName: hospitals.name,
        actorName: user.name,
      })
      .from(platformAuditEvents)
      .leftJoin(hospitals, eq(hospitals.id, platformAuditEvents.hospitalId))
      .leftJoin(user, eq(user.id, platformAuditEvents.actorUserId))
      .where(where)
      .orderBy(desc(platformAuditEvents.createdAt), desc(platformAuditEvents.id))
      .limit(opts.limit)
      .offset(opts.offset)
    const [total] = await tx.select({ n: count() }).from(platformAuditEvents).where(where)
    return {
      items: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
      total: total?.n ?? 0,
    }
  })
}
