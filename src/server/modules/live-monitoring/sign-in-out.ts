import { eq } from 'drizzle-orm'
import type { AppDb } from '../../db/client'
import { user } from '../../db/schema/auth'
import { withPlatform, withTenant } from '../../db/tenant'
import { recordActivity } from './activity'
import { markOffline, markOnline } from './presence'

/*
 * Sign-in and sign-out as activities (issue 29, docs/decisions/040). better-auth writes the
 * session row itself (no transaction of ours to join), so a sign-in is recorded right after it,
 * from its session hook; a failure here is logged and never fails the sign-in. Sign-out is
 * recorded by the sign-out route after the sessions are ended. Platform accounts and
 * impersonated sessions are not hospital staff at work: not recorded.
 */

export async function recordSignIn(
  db: AppDb,
  created: { userId: string; impersonatedBy?: string | null },
  log: { warn: (o: object, m: string) => void },
): Promise<void> {
  if (created.impersonatedBy) return
  try {
    const [row] = await withPlatform(db, (tx) =>
      tx
        .select({ hospitalId: user.hospitalId, isSuperAdmin: user.isSuperAdmin, role: user.role })
        .from(user)
        .where(eq(user.id, created.userId)),
    )
    if (!row?.hospitalId || row.isSuperAdmin || row.role === 'super_admin') return
    const who = { hospitalId: row.hospitalId, userId: created.userId }
    await withTenant(db, who, async (tx) => {
      await recordActivity(tx, { ...who, type: 'login' })
      await markOnline(tx, { ...who, login: true })
    })
  } catch (error) {
    log.warn({ err: error }, 'live monitoring: sign-in not recorded')
  }
}

export async function recordSignOut(
  db: AppDb,
  actor: {
    hospitalId: string | null
    userId: string
    isSuperAdmin: boolean
    impersonatedBy: string | null
  },
): Promise<void> {
  if (!actor.hospitalId || actor.isSuperAdmin || actor.impersonatedBy) return
  const who = { hospitalId: actor.hospitalId, userId: actor.userId }
  await withTenant(db, who, async (tx) => {
    await recordActivity(tx, { ...who, type: 'logout' })
    await markOffline(tx, who)
  })
}
