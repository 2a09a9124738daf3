import { noBody } from '../../../shared/schemas/common'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  PASSWORD_RESET_DONE_MESSAGE,
  RESET_LINK_INVALID_MESSAGE,
  RESET_MEMBER_SUSPENDED_MESSAGE,
  RESET_REQUESTED_MESSAGE,
  requestPasswordResetInput,
  resetLinkSentMessage,
  resetPasswordInput,
  type ResetLinkSent,
} from '../../../shared/schemas/password-reset'
import { memberParam } from '../../../shared/schemas/team'
import { actingMember, type CachedActor, publicRoute, requirePermission } from '../../auth/access'
import { type Auth, INACTIVE_MESSAGE, SUSPENDED_MESSAGE } from '../../auth/auth'
import { AUTH_BASE } from '../../auth/endpoints'
import { callAuthAt } from '../../auth/forward'
import { resetRefusal, withResetDelivery } from '../../auth/password-reset-link'
import type { SessionCache } from '../../auth/session-cache'
import type { AppDb } from '../../db/client'
import { AppError } from '../../http/app-error'
import { parse } from '../../http/parse'
import { assertDeliversLinks, type Mailer } from '../../integrations/email/mailer'
import { recordSecurityEvent } from '../security/security-log'
import {
  accountOf,
  addressLimit,
  auditReset,
  enforceLimits,
  ipLimit,
  memberForReset,
  rateLimited,
  type ResetLimit,
  resetTokenOwner,
} from './password-reset.service'

export interface PasswordResetRouteDeps {
  db: AppDb
  auth: Auth
  mailer: Mailer
  /** This instance's session cache: the account's sessions go at once after a reset. */
  sessions: SessionCache<CachedActor>
}

/**
 * Password reset (issue 40, item 7; docs/decisions/047): better-auth's own flow
 * (/request-password-reset and /reset-password, reached only from here) behind our limits,
 * account checks and logs.
 *
 * - POST /api/public/password-reset/request {email}: always the same 202 answer; the email (if
 *   any) goes out after the answer, so neither the answer nor its timing tells whether the
 *   address has an account. Limited per address and per IP in PostgreSQL (every instance).
 * - POST /api/public/password-reset/confirm {token, newPassword, confirmPassword}: sets the
 *   password, consumes the link and ends every session of the account. Refused (403) for a
 *   suspended or inactive account, which could not sign in anyway.
 * - POST /api/team/members/:id/password-reset: a hospital admin emails a member a link.
 */
export function passwordResetRoutes(app: FastifyInstance, deps: PasswordResetRouteDeps): void {
  const { db, auth } = deps
  // Emails still being sent after their answer left; a closing app waits for them.
  const pending = new Set<Promise<unknown>>()
  app.addHook('onClose', async () => {
    await Promise.allSettled([...pending])
  })

  async function limit(reply: FastifyReply, limits: readonly ResetLimit[]): Promise<void> {
    const held = await enforceLimits(db, limits)
    if (!held) return
    void reply.header('retry-after', String(held.retryAfterSeconds))
    throw rateLimited()
  }

  /** better-auth's /request-password-reset for one address, its email's delivery handed back. */
  const requestLink = (req: FastifyRequest, email: string, byAdmin: boolean) =>
    withResetDelivery({ byAdmin }, async () => {
      const res = await callAuthAt(auth, req, {
        method: 'POST',
        pathAndQuery: `${AUTH_BASE}/request-password-reset`,
        body: { email },
        anonymous: true,
      })
      if (res.status >= 400) throw new Error(`request-password-reset answered ${res.status}`)
    })

  app.post('/api/public/password-reset/request', { config: publicRoute }, async (req, reply) => {
    const { email } = parse(requestPasswordResetInput, req.body)
    await limit(reply, [ipLimit(req.ip, 'request'), addressLimit(email)])
    // Production without SMTP_URL: the link could reach no one (409, for every address alike).
    assertDeliversLinks(deps.mailer)
    const { delivery } = await requestLink(req, email, false)
    await recordSecurityEvent(db, { event: 'password.reset_requested', email, ip: req.ip })
    if (delivery) {
      const sending = delivery
        .catch((error: unknown) => req.log.error({ err: error }, 'password reset email failed'))
        .finally(() => pending.delete(sending))
      pending.add(sending)
    }
    return reply.status(202).send({ message: RESET_REQUESTED_MESSAGE })
  })

  app.post('/api/public/password-reset/confirm', { config: publicRoute }, async (req, reply) => {
    const input = parse(resetPasswordInput, req.body)
    await limit(reply, [ipLimit(req.ip, 'confirm')])
    const invalid = () =>
      new AppError('BAD_REQUEST', RESET_LINK_INVALID_MESSAGE, [
        { path: 'token', message: RESET_LINK_INVALID_MESSAGE },
      ])
    const userId = await resetTokenOwner(auth, input.token)
    if (!userId) throw invalid()
    const refusal = await resetRefusal(db, userId)
    if (refusal === 'missing') throw invalid()
    if (refusal) {
      throw new AppError(
        'FORBIDDEN',
        refusal === 'suspended' ? SUSPENDED_MESSAGE : INACTIVE_MESSAGE,
      )
    }
    const res = await callAuthAt(auth, req, {
      method: 'POST',
      pathAndQuery: `${AUTH_BASE}/reset-password`,
      body: { token: input.token, newPassword: input.newPassword },
      anonymous: true,
    })
    // Used or expired meanwhile (better-auth consumes the token in the password's transaction).
    if (res.status === 400) throw invalid()
    if (res.status >= 400) throw new Error(`reset-password answered ${res.status}`)
    // better-auth deleted every session (NOTIFY tells the other instances); this one now.
    deps.sessions.dropUser(userId)
    const account = await accountOf(db, userId)
    await recordSecurityEvent(db, {
      event: 'password.reset',
      userId,
      email: account?.email,
      hospitalId: account?.hospitalId,
      ip: req.ip,
    })
    if (account?.hospitalId)
      await auditReset(db, {
        hospitalId: account.hospitalId,
        actorUserId: userId,
        targetUserId: userId,
        action: 'user.password_reset',
        summary: `${account.name} <${account.email}> chose a new password with a reset link`,
      })
    return { message: PASSWORD_RESET_DONE_MESSAGE }
  })

  app.post(
    '/api/team/members/:id/password-reset',
    { config: requirePermission('team:reset-password') },
    async (req, reply): Promise<ResetLinkSent> => {
      const { id } = parse(memberParam, req.params, 'id')
      parse(noBody, req.body ?? {})
      const acting = actingMember(req)
      const member = await memberForReset(db, acting.hospitalId, id)
      if (member.banned || !member.isActive)
        throw new AppError('CONFLICT', RESET_MEMBER_SUSPENDED_MESSAGE)
      assertDeliversLinks(deps.mailer)
      await limit(reply, [addressLimit(member.email)])
      const { delivery } = await requestLink(req, member.email, true)
      const status = delivery ? await delivery : 'failed'
      const emailStatus = status === 'skipped' ? 'failed' : status
      await auditReset(db, {
        hospitalId: acting.hospitalId,
        actorUserId: acting.userId,
        impersonatorUserId: acting.impersonatorUserId,
        targetUserId: member.id,
        action: 'team.password_reset_sent',
        summary: `Sent a password reset link to ${member.name} <${member.email}>`,
      })
      await recordSecurityEvent(db, {
        event: 'password.reset_requested',
        userId: member.id,
        email: member.email,
        hospitalId: acting.hospitalId,
        impersonatorUserId: acting.impersonatorUserId,
        ip: req.ip,
        details: { by: acting.userId },
      })
      return { message: resetLinkSentMessage(member.email), emailStatus }
    },
  )
}
