import { and, count, eq, isNull } from 'drizzle-orm'
import type { AppDb } from '../../db/client'
import { communications } from '../../db/schema/leads'
import { withTenant } from '../../db/tenant'

/**
 * Unread inbound messages of a hospital (the dashboard bell): inbound communications no one
 * has opened yet (POST /api/leads/:id/read marks a lead's read). One index-only count
 * (communications_hospital_unread_idx).
 */
export async function unreadCount(db: AppDb, hospitalId: string): Promise<number> {
  const [row] = await withTenant(db, { hospitalId, userId: null }, (tx) =>
    tx
      .select({ n: count() })
      .from(communications)
      .where(and(eq(communications.direction, 'inbound'), isNull(communications.readAt))),
  )
  return row?.n ?? 0
}
