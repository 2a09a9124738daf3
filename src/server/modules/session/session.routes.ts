import { fromNodeHeaders } from 'better-auth/node'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { signInInput, trialSignUpInput } from '../../../shared/schemas/auth'
import { authed, publicRoute, resolveActor } from '../../auth/access'
import type { Auth } from '../../auth/auth'
import { copyHeaders, forwardToAuth } from '../../auth/forward'
import type { AppDb } from '../../db/client'
import { AppError } from '../../http/app-error'
import { parse } from '../../http/parse'
import { endAllSessions, getCurrentUser } from './session.service'
import { startTrial } from './trial.service'

interface Deps {
  db: AppDb
  auth: Auth
  /** Sign-in attempts allowed per account and per IP in 15 minutes. */
  signInLimit: { perAccount: number; perIp: number }
}

export function sessionRoutes(app: FastifyInstance, { db, auth, signInLimit }: Deps): void {
  // Browser navigations (spec section 2): sign-in and sign-out.
  app.get('/api/login', { config: publicRoute }, async (req, reply) => {
    const signup = (req.query as Record<string, unknown>).signup
    return reply.redirect(signup === '1' || signup === 'true' ? '/login?mode=signup' : '/login')
  })

  app.get('/api/logout', { config: publicRoute }, async (req, reply) => {
    if (req.headers['sec-fetch-site'] === 'cross-site') {
      throw new AppError('FORBIDDEN', 'Sign-out must come from this site')
    }
    const actor = await resolveActor(auth, req)
    if (actor) {
      const result = await auth.api.signOut({
        headers: fromNodeHeaders(req.headers),
        returnHeaders: true,
      })
      copyHeaders(result.headers, reply)
      await endAllSessions(db, actor.userId)
    }
    return reply.redirect('/')
  })

  app.get('/api/auth/user', { config: authed }, async (req) => {
    const actor = req.actor
    const current = actor ? await getCurrentUser(db, actor.userId) : null
    if (!current) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue')
    return current
  })

  app.post(
    '/api/auth/trial',
    { config: { ...publicRoute, rateLimit: { max: 10, timeWindow: '1 hour' } } },
    async (req, reply) => {
      const input = parse(trialSignUpInput, req.body)
      const { headers, userId } = await startTrial(db, auth, input, fromNodeHeaders(req.headers))
      copyHeaders(headers, reply)
      void reply.header('content-type', 'application/json; charset=utf-8')
      return reply.status(201).send(await getCurrentUser(db, userId))
    },
  )

  // Sign-in is better-auth's own endpoint, behind two limits: per IP, then per account.
  const perIp = app.rateLimit({
    max: signInLimit.perIp,
    timeWindow: '15 minutes',
    keyGenerator: (req) => `ip:${req.ip}`,
  })
  // A second app.rateLimit() handler would be skipped: the plugin runs one per request.
  const accountLimit = app.createRateLimit({
    max: signInLimit.perAccount,
    timeWindow: '15 minutes',
    keyGenerator: (req) => {
      const email = (req.body as { email?: unknown } | undefined)?.email
      return `acct:${typeof email === 'string' ? email.trim().toLowerCase() : ''}`
    },
  })
  const perAccount = async (req: FastifyRequest) => {
    const limit = await accountLimit(req)
    if (!limit.isAllowed && limit.isExceeded) {
      throw new AppError(
        'RATE_LIMITED',
        'Too many sign-in attempts for this account. Please wait 15 minutes and try again.',
      )
    }
  }
  app.post(
    '/api/auth/sign-in/email',
    { config: { ...publicRoute, rateLimit: false }, onRequest: perIp, preHandler: perAccount },
    async (req, reply) => {
      parse(signInInput, req.body)
      return forwardToAuth(auth, req, reply)
    },
  )

  // Accounts are created only through the trial sign-up (or by an administrator).
  app.post('/api/auth/sign-up/email', { config: publicRoute }, async () => {
    throw new AppError('NOT_FOUND', 'Sign up through /api/auth/trial')
  })

  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    config: publicRoute,
    handler: async (req, reply) => forwardToAuth(auth, req, reply),
  })
}
