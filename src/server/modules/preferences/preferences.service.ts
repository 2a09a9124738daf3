import { eq, sql } from 'drizzle-orm'
import {
  type Preferences,
  readPreferences,
  type SavePreferencesInput,
} from '../../../shared/schemas/preferences'
import type { AppDb } from '../../db/client'
import { user } from '../../db/schema/auth'
import { withPlatform } from '../../db/tenant'
import { notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'

export interface PreferencesOptions {
  db: AppDb
  userId: string
  /** The user's hospital; null for a platform account (no tenant to audit in). */
  hospitalId: string | null
  impersonatorUserId?: string | null | undefined
}

/** GET /api/me/preferences: the signed-in user's own (users is a platform table). */
export async function getPreferences(opts: PreferencesOptions): Promise<Preferences> {
  return withPlatform(opts.db, async (tx) => {
    const [row] = await tx
      .select({ preferences: user.preferences })
      .from(user)
      .where(eq(user.id, opts.userId))
    if (!row) throw notFound('User')
    return readPreferences(row.preferences)
  })
}

/**
 * PUT /api/me/preferences: replaces the user's preferences. A hospital member's change is
 * audited in their hospital (as app_user with the hospital set, like every tenant write); a
 * platform account has no hospital, and its appearance is not tenant data.
 */
export async function savePreferences(
  opts: PreferencesOptions & { values: SavePreferencesInput },
): Promise<Preferences> {
  return withPlatform(opts.db, async (tx) => {
    const [row] = await tx
      .select({ preferences: user.preferences })
      .from(user)
      .where(eq(user.id, opts.userId))
      .for('update')
    if (!row) throw notFound('User')
    const before = readPreferences(row.preferences)
    const next: Preferences = { ...opts.values }
    const changed = (Object.keys(next) as (keyof Preferences)[]).filter(
      (k) => next[k] !== before[k],
    )
    if (changed.length) {
      await tx.update(user).set({ preferences: next }).where(eq(user.id, opts.userId))
    }
    if (opts.hospitalId) {
      await tx.execute(
        sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${opts.hospitalId}, true)`,
      )
      await recordAudit(tx, {
        hospitalId: opts.hospitalId,
        actorUserId: opts.userId,
        impersonatorUserId: opts.impersonatorUserId,
        action: 'user.preferences_saved',
        entityType: 'user',
        entityId: opts.userId,
        summary: `Appearance saved (${changed.map((k) => `${k}: ${String(next[k])}`).join(', ') || 'no changes'})`,
      })
    }
    return next
  })
}
