import compress from '@fastify/compress'
import helmet from '@fastify/helmet'
import rateLimit from '@fastify/rate-limit'
import Fastify, { type FastifyInstance } from 'fastify'
import { registerAccessControl } from './auth/access'
import { type Auth, createAuth } from './auth/auth'
import type { Database } from './db/client'
import { registerErrorHandler, registerNotFound } from './http/error-handler'
import { registerSameOriginGuard } from './http/same-origin'
import { registerSpa } from './http/spa'
import { demoRequestsRoutes } from './modules/demo-requests/demo-requests.routes'
import { patientsRoutes } from './modules/patients/patients.routes'
import { sessionRoutes } from './modules/session/session.routes'

export interface AppOptions {
  database: Database
  authSecret: string
  baseURL?: string | undefined
  sessionHours?: number
  /** Directory of the built SPA; omitted in API tests. */
  clientDir?: string | undefined
  logLevel?: string
  /** X-Forwarded-* hops to trust: none, a hop count, or proxy addresses/CIDRs (env TRUST_PROXY). */
  trustProxy?: false | number | string[]
  /** Sign-in attempts per account and per IP in 15 minutes. */
  signInLimit?: { perAccount: number; perIp: number }
  /** better-auth's own per-IP limits (off in API tests that sign in many times). */
  authRateLimit?: boolean
}

export interface App {
  app: FastifyInstance
  auth: Auth
  database: Database
}

/** Fastify's form of TRUST_PROXY: a hop count becomes "trust the n nearest hops". */
function fastifyTrustProxy(setting: false | number | string[]) {
  if (typeof setting !== 'number') return setting
  return (_address: string, hop: number) => hop < setting
}

export async function buildApp(options: AppOptions): Promise<App> {
  const app = Fastify({
    logger: { level: options.logLevel ?? 'info' },
    bodyLimit: 1024 * 1024,
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    routerOptions: { ignoreTrailingSlash: true },
  })
  const { db } = options.database
  const auth = createAuth({
    db,
    secret: options.authSecret,
    baseURL: options.baseURL,
    sessionHours: options.sessionHours ?? 8,
    rateLimit: options.authRateLimit ?? true,
  })

  registerErrorHandler(app)
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: { 'img-src': ["'self'", 'data:'], 'upgrade-insecure-requests': null },
    },
    hsts: options.baseURL?.startsWith('https://') ?? false,
  })
  await app.register(compress, { global: true, threshold: 1024 })
  await app.register(rateLimit, { global: false })
  registerSameOriginGuard(app, options.baseURL)
  registerAccessControl(app, auth)

  sessionRoutes(app, {
    db,
    auth,
    signInLimit: options.signInLimit ?? { perAccount: 10, perIp: 50 },
  })
  patientsRoutes(app, { db })
  demoRequestsRoutes(app, { db })

  registerNotFound(
    app,
    options.clientDir ? await registerSpa(app, options.clientDir, options.baseURL) : false,
  )
  return { app, auth, database: options.database }
}
