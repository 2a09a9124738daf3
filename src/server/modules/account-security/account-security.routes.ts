import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  changePasswordInput,
  PASSWORD_CHANGED_MESSAGE,
  sessionIdParams,
  signOutOthersInput,
} from '../../../shared/schemas/account-security'
import { type Actor, authed, type SessionDeps } from '../../auth/access'
import { AUTH_BASE } from '../../auth/endpoints'
import { callAuthAt, copyHeaders, sendAuthResponse } from '../../auth/forward'
import { AppError } from '../../http/app-error'
import { parse } from '../../http/parse'
import { recordSecurityEvent } from '../security/security-log'
import {
  listOwnSessions,
  revokeOtherOwnSessions,
  revokeOwnSession,
} from './account-sessions.service'

function signedIn(req: FastifyRequest): Actor {
  const actor = req.actor
  if (!actor) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue')
  return actor
}

/** Who did it, for the platform security log. */
function who(req: FastifyRequest, actor: Actor) {
  return {
    userId: actor.userId,
    email: actor.email,
    hospitalId: actor.hospitalId,
    impersonatorUserId: actor.impersonatedBy,
    ip: req.ip,
  }
}

export const CURRENT_PASSWORD_WRONG = 'Your current password is not correct'

/**
 * Settings -> Security for every signed-in user (issue 27): their own password and sessions.
 * No user id in any path: nobody can name another user's sessions. Every change goes to the
 * platform security log; ended sessions leave this instance's session cache at once and every
 * other instance's by NOTIFY (migration 0008).
 */
export function accountSecurityRoutes(app: FastifyInstance, deps: SessionDeps): void {
  const { db } = deps
  const config = { config: authed }

  app.get('/api/me/sessions', config, async (req) => {
    const actor = signedIn(req)
    const sessions = await listOwnSessions({
      db,
      userId: actor.userId,
      currentSessionId: actor.sessionId,
    })
    return { sessions }
  })

  app.delete('/api/me/sessions/:id', config, async (req, reply) => {
    const actor = signedIn(req)
    const { id } = parse(sessionIdParams, req.params, 'id')
    await revokeOwnSession({ db, userId: actor.userId, sessionId: id })
    deps.sessions.dropSession(id)
    await recordSecurityEvent(db, {
      event: 'session.revoked',
      ...who(req, actor),
      details: { sessionId: id, current: id === actor.sessionId },
    })
    return reply.status(204).send()
  })

  app.post('/api/me/sessions/sign-out-others', config, async (req) => {
    const actor = signedIn(req)
    parse(signOutOthersInput, req.body ?? {})
    const revoked = await revokeOtherOwnSessions({
      db,
      userId: actor.userId,
      currentSessionId: actor.sessionId,
    })
    deps.sessions.dropUser(actor.userId)
    await recordSecurityEvent(db, {
      event: 'session.revoked',
      ...who(req, actor),
      details: { others: true, count: revoked },
    })
    return { revoked }
  })

  // better-auth checks the current password and replaces the password; revokeOtherSessions
  // deletes every session of the user and signs this device in again with a new session
  // (its cookie is passed on).
  app.post('/api/me/password', config, async (req, reply) => {
    const actor = signedIn(req)
    const input = parse(changePasswordInput, req.body)
    if (actor.impersonatedBy) {
      throw new AppError('FORBIDDEN', 'A password is changed only by its owner')
    }
    const res = await callAuthAt(deps.auth, req, {
      method: 'POST',
      pathAndQuery: `${AUTH_BASE}/change-password`,
      body: {
        currentPassword: input.currentPassword,
        newPassword: input.newPassword,
        revokeOtherSessions: true,
      },
    })
    if (res.status >= 400) {
      await recordSecurityEvent(db, { event: 'password.change_failed', ...who(req, actor) })
      const code = (res.json as { code?: unknown } | null)?.code
      if (res.status === 400 && code === 'INVALID_PASSWORD') {
        throw new AppError('VALIDATION', CURRENT_PASSWORD_WRONG, [
          { path: 'currentPassword', message: CURRENT_PASSWORD_WRONG },
        ])
      }
      return sendAuthResponse(reply, res)
    }
    deps.sessions.dropUser(actor.userId)
    await recordSecurityEvent(db, {
      event: 'password.changed',
      ...who(req, actor),
      details: { otherSessionsRevoked: true },
    })
    copyHeaders(res.headers, reply)
    return reply.type('application/json; charset=utf-8').send({ message: PASSWORD_CHANGED_MESSAGE })
  })
}
