import { and, eq, ne } from 'drizzle-orm'
import { roleOf } from '../../auth/access'
import { splitName } from '../../../shared/names'
import type { StaffRole } from '../../../shared/roles'
import type { AppDb } from '../../db/client'
import { user } from '../../db/schema/auth'
import { withPlatform } from '../../db/tenant'

/**
 * The hospital's users for the board and names (users are a platform table app_user cannot
 * read: one explicit platform query narrowed to the caller's hospital).
 */
export interface Member {
  id: string
  firstName: string
  lastName: string
  name: string
  role: StaffRole
  /** Active (not suspended, not deactivated): shown on the board. */
  active: boolean
}

export async function hospitalMembers(db: AppDb, hospitalId: string): Promise<Member[]> {
  const rows = await withPlatform(db, (tx) =>
    tx
      .select({
        id: user.id,
        name: user.name,
        firstName: user.firstName,
        lastName: user.lastName,
        role: user.role,
        isActive: user.isActive,
        banned: user.banned,
      })
      .from(user)
      .where(
        and(
          eq(user.hospitalId, hospitalId),
          eq(user.isSuperAdmin, false),
          ne(user.role, 'super_admin'),
        ),
      ),
  )
  return rows.map((r) => {
    const split = splitName(r.name)
    const firstName = r.firstName?.trim() || split.firstName
    const lastName = r.lastName?.trim() || split.lastName
    const role = roleOf(r.role)
    return {
      id: r.id,
      firstName,
      lastName,
      name: `${firstName} ${lastName}`.trim() || r.name,
      role: role === 'super_admin' ? 'viewer' : role,
      active: r.isActive && !r.banned,
    }
  })
}

/** A name for users no longer in the hospital. */
export const FORMER_MEMBER = 'Former member'

/**
 * Names by user id, cached per hospital for a short time: the SSE hub names each activity it
 * fans out without a query per event. A new member unknown to the cache refreshes it.
 */
export function createNameCache(db: AppDb, ttlMs = 60_000) {
  const cache = new Map<string, { at: number; names: Map<string, string> }>()
  async function load(hospitalId: string) {
    const members = await hospitalMembers(db, hospitalId)
    const entry = { at: Date.now(), names: new Map(members.map((m) => [m.id, m.name])) }
    cache.set(hospitalId, entry)
    return entry
  }
  return async (hospitalId: string, userId: string): Promise<string> => {
    let entry = cache.get(hospitalId)
    if (!entry || Date.now() - entry.at > ttlMs || !entry.names.has(userId)) {
      entry = await load(hospitalId)
    }
    return entry.names.get(userId) ?? FORMER_MEMBER
  }
}
