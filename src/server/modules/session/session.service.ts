import { eq } from 'drizzle-orm'
import type { CurrentUser } from '../../../shared/schemas/auth'
import type { Role } from '../../../shared/roles'
import { roleOf } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { session, user } from '../../db/schema/auth'
import { hospitals } from '../../db/schema/hospitals'
import { withPlatform } from '../../db/tenant'

/** The signed-in user as the client reads it (spec "User" plus the hospital). */
export async function getCurrentUser(db: AppDb, userId: string): Promise<CurrentUser | null> {
  const [row] = await withPlatform(db, (tx) =>
    tx
      .select({
        user,
        hospitalName: hospitals.name,
        timeZone: hospitals.timeZone,
        plan: hospitals.plan,
      })
      .from(user)
      .leftJoin(hospitals, eq(hospitals.id, user.hospitalId))
      .where(eq(user.id, userId)),
  )
  if (!row) return null
  const u = row.user
  const role: Role = roleOf(u.role)
  return {
    id: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    username: u.username,
    email: u.email,
    role,
    isActive: u.isActive,
    status: u.banned ? 'suspended' : 'active',
    plan: row.plan,
    profileImageUrl: u.image,
    isSuperAdmin: u.isSuperAdmin || role === 'super_admin',
    twoFactorEnabled: u.twoFactorEnabled,
    createdAt: u.createdAt.toISOString(),
    hospitalId: u.hospitalId,
    hospitalName: row.hospitalName,
    timeZone: row.timeZone ?? 'Asia/Kolkata',
  }
}

/** Ends every session of the user (sign-out everywhere, suspension). */
export async function endAllSessions(db: AppDb, userId: string): Promise<void> {
  await withPlatform(db, (tx) => tx.delete(session).where(eq(session.userId, userId)))
}
