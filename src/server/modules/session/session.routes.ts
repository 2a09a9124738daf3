import type { FastifyInstance } from 'fastify'
import {
  mustEnrolTwoFactor,
  TRIAL_STARTED_MESSAGE,
  trialSignUpInput,
} from '../../../shared/schemas/auth'
import {
  authedBeforeEnrolment,
  publicRoute,
  resolveActor,
  twoFactorRequiredError,
} from '../../auth/access'
import { AUTH_BASE, matchAuthEndpoint } from '../../auth/endpoints'
import { currentUserAsActing } from '../../auth/hospital-access'
import { callAuth, callAuthAt, sendAuthResponse, userOf } from '../../auth/forward'
import { AppError } from '../../http/app-error'
import { parse } from '../../http/parse'
import { publicBase } from '../../http/public-url'
import { recordSecurityEvent } from '../security/security-log'
import { logoutRoutes } from './logout.routes'
import type { SessionRouteDeps } from './session.deps'
import { countHit } from '../../http/rate-limit-store'
import { getCurrentUser } from './session.service'
import { signInRoutes } from './sign-in.routes'
import { startTrial } from './trial.service'

/** As better-auth's own limit on /send-verification-email. */
export const TRIAL_EMAILS_PER_IP_PER_MINUTE = 3

export function sessionRoutes(app: FastifyInstance, deps: SessionRouteDeps): void {
  const { db, auth } = deps

  // Browser navigations (spec section 2): sign-in and sign-out.
  app.get('/api/login', { config: publicRoute }, async (req, reply) => {
    const signup = (req.query as Record<string, unknown>).signup
    return reply.redirect(signup === '1' || signup === 'true' ? '/login?mode=signup' : '/login')
  })
  logoutRoutes(app, deps)
  signInRoutes(app, deps)

  app.get('/api/auth/user', { config: authedBeforeEnrolment }, async (req) => {
    const actor = req.actor
    const current = actor ? await getCurrentUser(db, actor.userId) : null
    if (!actor || !current) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue')
    return {
      ...(await currentUserAsActing(db, req, current)),
      twoFactorRequired: actor.twoFactorRequired,
    }
  })

  app.post(
    '/api/auth/trial',
    { config: { ...publicRoute, rateLimit: { max: 10, timeWindow: '1 hour' } } },
    async (req, reply) => {
      const input = parse(trialSignUpInput, req.body)
      // better-auth sends at most 3 activation emails a minute per IP; an address that already
      // has an account is mailed by us instead. One limit for both, counted before either, so
      // a 429 says nothing about whether an address has an account.
      if (deps.emailRateLimit) {
        const { hits, ttlMs } = await countHit(db, `trial-mail:${req.ip}`, 60_000)
        if (hits > TRIAL_EMAILS_PER_IP_PER_MINUTE) {
          void reply.header('retry-after', String(Math.max(1, Math.ceil(ttlMs / 1000))))
          throw new AppError(
            'RATE_LIMITED',
            'Too many requests. Please wait a moment and try again.',
          )
        }
      }
      await startTrial({
        db,
        auth,
        mailer: deps.mailer,
        input,
        requestVerificationEmail: async (email) => {
          const res = await callAuthAt(auth, req, {
            method: 'POST',
            pathAndQuery: `${AUTH_BASE}/send-verification-email`,
            body: { email, callbackURL: '/' },
            anonymous: true,
          })
          if (res.status === 429)
            throw new AppError(
              'RATE_LIMITED',
              'Too many requests. Please wait a moment and try again.',
            )
          if (res.status >= 400) throw new Error(`send-verification-email answered ${res.status}`)
        },
        publicUrl: publicBase(deps.baseURL, req),
        ip: req.ip,
      })
      return reply.status(202).send({ message: TRIAL_STARTED_MESSAGE })
    },
  )

  // Every other better-auth endpoint: only the allowlisted ones, by exact path.
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    config: publicRoute,
    handler: async (req, reply) => {
      const endpoint = matchAuthEndpoint(req.method, req.url)
      if (!endpoint) throw new AppError('NOT_FOUND', 'Not found')
      const actor = req.headers.cookie?.includes('session_token=')
        ? await resolveActor(deps, req)
        : null
      if (actor && mustEnrolTwoFactor(actor) && !endpoint.beforeEnrolment) {
        throw twoFactorRequiredError(actor)
      }
      const res = await callAuth(auth, req)
      let event = res.status < 400 ? endpoint.events?.ok : endpoint.events?.failed
      // verify-totp without a session is the second step of a sign-in, not an enrolment.
      if (event === 'two_factor.enabled' && !actor) event = 'sign_in.success'
      if (event) {
        const user = userOf(res.json)
        const target = (req.body as { userId?: unknown } | undefined)?.userId
        await recordSecurityEvent(db, {
          event,
          userId: actor?.userId ?? user.id,
          email: actor?.email ?? user.email,
          hospitalId: actor?.hospitalId,
          impersonatorUserId: actor?.impersonatedBy,
          ip: req.ip,
          ...(typeof target === 'string' ? { details: { targetUserId: target } } : {}),
        })
      }
      return sendAuthResponse(reply, res)
    },
  })
}
