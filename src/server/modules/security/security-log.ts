import type { AppDb } from '../../db/client'
import { securityEvents } from '../../db/schema/security'
import { withPlatform } from '../../db/tenant'

/** What the platform security log records (ASVS V16.3). Add a name here before using it. */
export const securityEventNames = [
  'sign_in.success',
  'sign_in.password_verified',
  'sign_in.failure',
  'sign_in.refused',
  'sign_in.locked',
  'sign_out',
  'session.revoked',
  'password.changed',
  'password.change_failed',
  // Issue 40, item 7: a reset link asked for (the form, or a hospital admin), and a reset done.
  'password.reset_requested',
  'password.reset',
  'two_factor.enrolment_started',
  'two_factor.enabled',
  'two_factor.failure',
  'two_factor.disabled',
  'two_factor.backup_codes_regenerated',
  'email.verified',
  'trial.requested',
  'user.suspended',
  'user.unsuspended',
  'user.sessions_revoked',
  'user.role_changed',
  'data.exported',
] as const
export type SecurityEventName = (typeof securityEventNames)[number]

export interface SecurityEvent {
  event: SecurityEventName
  userId?: string | null | undefined
  email?: string | null | undefined
  hospitalId?: string | null | undefined
  impersonatorUserId?: string | null | undefined
  ip?: string | null | undefined
  details?: Record<string, unknown> | undefined
}

/** Appends one row to the platform security log (append-only: no UPDATE or DELETE grant). */
export async function recordSecurityEvent(db: AppDb, entry: SecurityEvent): Promise<void> {
  await withPlatform(db, (tx) =>
    tx.insert(securityEvents).values({
      event: entry.event,
      userId: entry.userId ?? null,
      email: entry.email?.trim().toLowerCase() ?? null,
      hospitalId: entry.hospitalId ?? null,
      impersonatorUserId: entry.impersonatorUserId ?? null,
      ip: entry.ip ?? null,
      details: entry.details ?? null,
    }),
  )
}
