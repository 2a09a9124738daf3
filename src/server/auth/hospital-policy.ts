import { eq } from 'drizzle-orm'
import { hospitalSettings, hospitalSettingsDefaults } from '../db/schema/settings'
import type { AppDb } from '../db/client'
import { withTenant } from '../db/tenant'
import type { SessionPolicy } from './session-policy'

/** The longest session a hospital may set (hospital_settings_session_hours_check). */
export const MAX_HOSPITAL_SESSION_HOURS = 72

/** What a hospital's Settings -> Security asks of its members' sign-ins (issue 27). */
export interface HospitalSecurity {
  /** Members without two-factor may only enrol (and sign out) until they turn it on. */
  requireTwoFactor: boolean
  /** The limits of its members' sessions. */
  policy: SessionPolicy
}

/**
 * The session limits a hospital's settings give: with session timeout on, its sessions end
 * `sessionHours` after sign-in (absolute), never later than the operator's limit (env
 * SESSION_HOURS): a hospital may shorten sessions, not lengthen them; off, the global policy.
 * The idle limit is always the global one.
 */
export function policyFor(
  settings: { sessionTimeout: boolean; sessionHours: number },
  global: SessionPolicy,
): SessionPolicy {
  if (!settings.sessionTimeout) return global
  return {
    absoluteHours: Math.min(settings.sessionHours, global.absoluteHours),
    idleMinutes: global.idleMinutes,
  }
}

/** The message for a session duration above the operator's limit (Settings -> Security). */
export const sessionHoursAboveLimit = (limit: number) =>
  `Session duration can be at most ${limit} ${limit === 1 ? 'hour' : 'hours'} on this server (the operator's limit)`

/**
 * A user's security policy: their hospital's settings (read inside the hospital's tenant
 * transaction: hospital_settings is under forced RLS; no row means the defaults), or the
 * global policy for an account outside any hospital (platform accounts).
 */
export async function securityFor(
  db: AppDb,
  hospitalId: string | null,
  global: SessionPolicy,
): Promise<HospitalSecurity> {
  if (!hospitalId) return { requireTwoFactor: false, policy: global }
  const [row] = await withTenant(db, { hospitalId, userId: null }, (tx) =>
    tx
      .select({
        requireTwoFactor: hospitalSettings.requireTwoFactor,
        sessionTimeout: hospitalSettings.sessionTimeout,
        sessionHours: hospitalSettings.sessionHours,
      })
      .from(hospitalSettings)
      .where(eq(hospitalSettings.hospitalId, hospitalId)),
  )
  const settings = row ?? hospitalSettingsDefaults
  return { requireTwoFactor: settings.requireTwoFactor, policy: policyFor(settings, global) }
}
