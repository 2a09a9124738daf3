import type { FastifyInstance } from 'fastify'
import { signInInput } from '../../../shared/schemas/auth'
import { publicRoute } from '../../auth/access'
import { AUTH_BASE } from '../../auth/endpoints'
import { callAuth, sendAuthResponse, userOf } from '../../auth/forward'
import type { Hold } from '../../auth/sign-in-throttle'
import { AppError } from '../../http/app-error'
import { parse } from '../../http/parse'
import { recordSecurityEvent } from '../security/security-log'
import type { SessionRouteDeps } from './session.deps'

const SIGN_IN_PATH = `${AUTH_BASE}/sign-in/email`

function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`
  return `${Math.ceil(seconds / 60)} minutes`
}

function heldError(hold: Hold): AppError {
  return new AppError(
    'RATE_LIMITED',
    `Too many failed sign-in attempts. Please wait ${waitText(hold.retryAfterSeconds)} and try again.`,
  )
}

/**
 * POST /api/auth/sign-in/email: better-auth's sign-in behind the PostgreSQL throttle
 * (sign-in-throttle.ts). Only the exact path gets here; variants are refused (endpoints.ts).
 */
export function signInRoutes(app: FastifyInstance, deps: SessionRouteDeps): void {
  const { db, auth, throttle } = deps
  app.post(SIGN_IN_PATH, { config: publicRoute }, async (req, reply) => {
    // With ignoreTrailingSlash Fastify also routes '/sign-in/email/' here: refuse variants.
    if (req.url.split('?')[0] !== SIGN_IN_PATH) throw new AppError('NOT_FOUND', 'Not found')
    const input = parse(signInInput, req.body)
    const attempt = { email: input.email, ip: req.ip }
    const held = await throttle.check(attempt)
    if (held) {
      await recordSecurityEvent(db, {
        event: 'sign_in.locked',
        email: input.email,
        ip: req.ip,
        details: { scope: held.scope, retryAfterSeconds: held.retryAfterSeconds },
      })
      void reply.header('retry-after', String(held.retryAfterSeconds))
      throw heldError(held)
    }
    const res = await callAuth(auth, req)
    const user = userOf(res.json)
    if (res.status === 401) {
      const hold = await throttle.recordFailure(attempt)
      await recordSecurityEvent(db, {
        event: 'sign_in.failure',
        email: input.email,
        ip: req.ip,
        ...(hold ? { details: { heldFor: hold.retryAfterSeconds, scope: hold.scope } } : {}),
      })
    } else if (res.status < 300) {
      await throttle.recordSuccess(attempt)
      const pending = (res.json as { twoFactorRedirect?: unknown } | null)?.twoFactorRedirect
      await recordSecurityEvent(db, {
        event: pending === true ? 'sign_in.password_verified' : 'sign_in.success',
        userId: user.id,
        email: input.email,
        ip: req.ip,
      })
    } else if (res.status === 403) {
      await recordSecurityEvent(db, {
        event: 'sign_in.refused',
        email: input.email,
        ip: req.ip,
        details: { code: (res.json as { code?: unknown } | null)?.code ?? null },
      })
    }
    return sendAuthResponse(reply, res)
  })
}
