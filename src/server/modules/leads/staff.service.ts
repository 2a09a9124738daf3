import { and, asc, eq, inArray, ne } from 'drizzle-orm'
import type { StaffMember } from '../../../shared/schemas/leads'
import type { AppDb } from '../../db/client'
import { user } from '../../db/schema/auth'
import { withPlatform } from '../../db/tenant'
import { AppError } from '../../http/app-error'

/**
 * Users are a platform table (sign-in reads them before any tenant is known), so app_user
 * cannot read them: names and the staff list come from an explicit platform query, always
 * narrowed to the caller's hospital.
 */

/** Active staff of the hospital (no super admins, nobody suspended). */
const activeStaffOf = (hospitalId: string) =>
  and(
    eq(user.hospitalId, hospitalId),
    eq(user.isActive, true),
    eq(user.banned, false),
    eq(user.isSuperAdmin, false),
    ne(user.role, 'super_admin'),
  )

/** GET /api/staff: who a lead can be assigned to, by name. */
export async function listStaff(opts: { db: AppDb; hospitalId: string }): Promise<StaffMember[]> {
  return withPlatform(opts.db, (tx) =>
    tx
      .select({ id: user.id, name: user.name, role: user.role })
      .from(user)
      .where(activeStaffOf(opts.hospitalId))
      .orderBy(asc(user.name), asc(user.id)),
  )
}

/** Names of the hospital's users by id (users of another hospital are left out). */
export async function userNames(
  db: AppDb,
  hospitalId: string,
  ids: readonly (string | null)[],
): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))]
  if (!wanted.length) return new Map()
  const rows = await withPlatform(db, (tx) =>
    tx
      .select({ id: user.id, name: user.name })
      .from(user)
      .where(and(eq(user.hospitalId, hospitalId), inArray(user.id, wanted))),
  )
  return new Map(rows.map((r) => [r.id, r.name]))
}

/** A lead may be assigned only to an active staff member of its hospital: else a 400 on the field. */
export async function assertAssignable(
  db: AppDb,
  hospitalId: string,
  userId: string | null | undefined,
): Promise<void> {
  if (!userId) return
  const [found] = await withPlatform(db, (tx) =>
    tx
      .select({ id: user.id })
      .from(user)
      .where(and(eq(user.id, userId), activeStaffOf(hospitalId))),
  )
  if (found) return
  const message = 'Choose an active staff member of this hospital'
  throw new AppError('VALIDATION', `Invalid input: assignedToUserId: ${message}`, [
    { path: 'assignedToUserId', message },
  ])
}
