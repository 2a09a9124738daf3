import { createHash } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import {
  RESET_ADDRESS_WINDOW_MINUTES,
  RESET_IP_WINDOW_MINUTES,
  RESET_RATE_LIMITED_MESSAGE,
  RESET_REQUESTS_PER_ADDRESS,
  RESET_REQUESTS_PER_IP,
} from '../../../shared/schemas/password-reset'
import type { Auth } from '../../auth/auth'
import type { AppDb } from '../../db/client'
import { user } from '../../db/schema/auth'
import { withPlatform, withTenant } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { countHit } from '../../http/rate-limit-store'
import { recordAudit } from '../audit/audit.service'

/** One limit: a key in the shared rate-limit table (docs/decisions/008), its window and count. */
export interface ResetLimit {
  key: string
  windowMs: number
  max: number
}

/** The address is hashed: the rate-limit table need not hold who asked. */
export const addressLimit = (email: string): ResetLimit => ({
  key: `password-reset:address:${createHash('sha256').update(email).digest('hex')}`,
  windowMs: RESET_ADDRESS_WINDOW_MINUTES * 60_000,
  max: RESET_REQUESTS_PER_ADDRESS,
})

export const ipLimit = (ip: string, what: 'request' | 'confirm'): ResetLimit => ({
  key: `password-reset:${what}:ip:${ip}`,
  windowMs: RESET_IP_WINDOW_MINUTES * 60_000,
  max: RESET_REQUESTS_PER_IP,
})

/**
 * Counts one attempt against every limit, on every instance alike (PostgreSQL); the first one
 * over its count refuses with 429 and the seconds to wait. Counted before the address is
 * looked up, so a 429 says nothing about whether it has an account.
 */
export async function enforceLimits(
  db: AppDb,
  limits: readonly ResetLimit[],
): Promise<{ retryAfterSeconds: number } | null> {
  let retryAfterSeconds = 0
  for (const limit of limits) {
    const { hits, ttlMs } = await countHit(db, limit.key, limit.windowMs)
    if (hits > limit.max)
      retryAfterSeconds = Math.max(retryAfterSeconds, Math.max(1, Math.ceil(ttlMs / 1000)))
  }
  return retryAfterSeconds > 0 ? { retryAfterSeconds } : null
}

export const rateLimited = () => new AppError('RATE_LIMITED', RESET_RATE_LIMITED_MESSAGE)

/**
 * The account a reset token belongs to, while the token is valid (better-auth's own
 * verification row, read through its adapter); null for an unknown, used or expired token.
 */
export async function resetTokenOwner(auth: Auth, token: string): Promise<string | null> {
  const context = await auth.$context
  const row = await context.internalAdapter.findVerificationValue(`reset-password:${token}`)
  if (!row || row.expiresAt.getTime() <= Date.now()) return null
  return row.value
}

export interface MemberForReset {
  id: string
  email: string
  name: string
  hospitalId: string | null
  banned: boolean
  isActive: boolean
}

/** A member of this hospital (404 for anyone else, platform accounts included). */
export async function memberForReset(
  db: AppDb,
  hospitalId: string,
  id: string,
): Promise<MemberForReset> {
  const [row] = await withPlatform(db, (tx) =>
    tx
      .select({
        id: user.id,
        email: user.email,
        name: user.name,
        hospitalId: user.hospitalId,
        banned: user.banned,
        isActive: user.isActive,
        isSuperAdmin: user.isSuperAdmin,
      })
      .from(user)
      .where(and(eq(user.id, id), eq(user.hospitalId, hospitalId))),
  )
  if (!row || row.isSuperAdmin) throw notFound('Team member')
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    hospitalId: row.hospitalId,
    banned: row.banned === true,
    isActive: row.isActive !== false,
  }
}

/** The account's email and hospital (for the logs after a reset). */
export async function accountOf(
  db: AppDb,
  userId: string,
): Promise<{ email: string; name: string; hospitalId: string | null } | null> {
  const [row] = await withPlatform(db, (tx) =>
    tx
      .select({ email: user.email, name: user.name, hospitalId: user.hospitalId })
      .from(user)
      .where(eq(user.id, userId)),
  )
  return row ?? null
}

/** One audit row in the hospital's log (tenant transaction). */
export async function auditReset(
  db: AppDb,
  entry: {
    hospitalId: string
    actorUserId: string
    impersonatorUserId?: string | null | undefined
    targetUserId: string
    action: 'team.password_reset_sent' | 'user.password_reset'
    summary: string
  },
): Promise<void> {
  await withTenant(db, { hospitalId: entry.hospitalId, userId: entry.actorUserId }, (tx) =>
    recordAudit(tx, {
      hospitalId: entry.hospitalId,
      actorUserId: entry.actorUserId,
      impersonatorUserId: entry.impersonatorUserId,
      action: entry.action,
      entityType: 'user',
      entityId: entry.targetUserId,
      summary: entry.summary,
    }),
  )
}
