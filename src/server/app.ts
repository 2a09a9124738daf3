import type { Writable } from 'node:stream'
import helmet from '@fastify/helmet'
import Fastify, { type FastifyInstance } from 'fastify'
import {
  type CachedActor,
  registerAccessControl,
  resolveActor,
  sessionCookieName,
  type SessionDeps,
} from './auth/access'
import { type Auth, createAuth } from './auth/auth'
import { applyHospitalAccess } from './auth/hospital-access'
import {
  createSessionCache,
  listenForRevocations,
  type SessionCacheOptions,
} from './auth/session-cache'
import type { SessionPolicy } from './auth/session-policy'
import {
  createSignInThrottle,
  defaultThrottlePolicy,
  type ThrottlePolicy,
} from './auth/sign-in-throttle'
import type { Database } from './db/client'
import type { ListenState } from './db/notify'
import { APPEARANCE_SCRIPT_SOURCE } from './http/appearance-script'
import { registerBodylessDeletes } from './http/bodyless-deletes'
import { registerCompression } from './http/compress'
import { registerErrorHandler, registerNotFound } from './http/error-handler'
import { healthRoutes } from './http/health'
import { type LogFormat, loggerOptions, OneLinePerRequest } from './http/logging'
import { registerRateLimits } from './http/rate-limit-store'
import { registerSameOriginGuard } from './http/same-origin'
import { registerSecurityHeaders } from './http/security-headers'
import { registerSpa } from './http/spa'
import { registerSignedInHint } from './http/signed-in-hint'
import { createMailer, type MailCapture, type Mailer } from './integrations/email/mailer'
import type { ProviderUrls } from './integrations/messaging/registry'
import { backupRoutes } from './modules/backups/backups.routes'
import { bookingRoutes } from './modules/booking/booking.routes'
import { faqsRoutes } from './modules/faqs/faqs.routes'
import { accountSecurityRoutes } from './modules/account-security/account-security.routes'
import { appointmentsRoutes } from './modules/appointments/appointments.routes'
import { invoicesRoutes } from './modules/billing/invoices.routes'
import { servicesCatalogueRoutes } from './modules/billing/services-catalogue.routes'
import { callsRoutes } from './modules/calls/calls.routes'
import { callsIncomingRoutes } from './modules/calls-incoming/incoming.routes'
import type { VoiceOptions } from './modules/calls/voice-registry'
import { campaignsRoutes } from './modules/campaigns/campaigns.routes'
import { demoRequestsRoutes } from './modules/demo-requests/demo-requests.routes'
import { hospitalSettingsRoutes } from './modules/hospital-settings/hospital-settings.routes'
import { settingsRoutes } from './modules/settings/settings.routes'
import { leadsRoutes } from './modules/leads/leads.routes'
import { leadTrendsRoutes } from './modules/leads/trends.routes'
import { metaAdminRoutes } from './modules/meta/meta-admin.routes'
import { metaRoutes } from './modules/meta/meta.routes'
import { metaWebhookRoutes } from './modules/meta/webhook.routes'
import { messagingEventsRoutes } from './modules/messaging-events/events.routes'
import { messagingRoutes } from './modules/messaging/messaging.routes'
import { createMessagingHub } from './modules/messaging-events/hub'
import { messagingWebhookRoutes } from './modules/messaging-webhooks/webhooks.routes'
import { voiceWebhookRoutes } from './modules/voice-webhooks/voice-webhooks.routes'
import { voiceSettingsRoutes } from './modules/voice-settings/voice-settings.routes'
import { messagingSettingsApi } from './modules/messaging-settings/messaging-settings.api'
import { outboxRoutes } from './modules/outbox/outbox.routes'
import { dataExportRoutes } from './modules/data-export/data-export.routes'
import { dataRightsRoutes } from './modules/data-rights/data-rights.routes'
import { patientsRoutes } from './modules/patients/patients.routes'
import { platformRoutes } from './modules/platform/platform.routes'
import { preferencesRoutes } from './modules/preferences/preferences.routes'
import { sessionRoutes } from './modules/session/session.routes'
import { supportAccessRoutes } from './modules/support-access/support-access.routes'
import { leadGenerationRoutes } from './modules/lead-generation/lead-generation.routes'
import { supportTicketsRoutes } from './modules/support-tickets/tickets.routes'
import { liveMonitoringRoutes } from './modules/live-monitoring/live-monitoring.routes'
import { recordSignIn } from './modules/live-monitoring/sign-in-out'
import { teamRoutes } from './modules/team/team.routes'
import { passwordResetRoutes } from './modules/password-reset/password-reset.routes'

export interface AppOptions {
  database: Database
  authSecret: string
  baseURL?: string | undefined
  /** Absolute and idle session limits (env SESSION_HOURS, SESSION_IDLE_MINUTES). */
  session?: Partial<SessionPolicy>
  /** PostgreSQL: a direct (not pooled) URL for LISTEN (env DATABASE_DIRECT_URL; decision 010). */
  databaseDirectUrl?: string | undefined
  /** Session cache lifetimes and size (auth/session-cache.ts). */
  sessionCache?: Partial<SessionCacheOptions>
  /** Directory of the built SPA; omitted in API tests. */
  clientDir?: string | undefined
  logLevel?: string
  /** Where logs go (tests capture them); stdout by default. */
  logStream?: Writable
  /** JSON lines (default) or pino-pretty for a terminal (env LOG_FORMAT). */
  logFormat?: LogFormat
  /** X-Forwarded-* hops to trust: none, a hop count, or proxy addresses/CIDRs (env TRUST_PROXY). */
  trustProxy?: false | number | string[]
  /** Sign-in throttling (sign-in-throttle.ts); tests tighten or loosen it. */
  signInThrottle?: Partial<ThrottlePolicy>
  /** better-auth's own per-IP limits (off in API tests that sign in many times). */
  authRateLimit?: boolean
  /** Meta's Graph API (env META_GRAPH_URL, META_GRAPH_VERSION); graph.facebook.com v21.0 by default. */
  metaGraph?: { baseUrl: string; version: string } | undefined
  /** Messaging providers' base URLs (env: providerUrlsFromEnv); the real ones by default. */
  messagingProviders?: ProviderUrls | undefined
  /** Voice providers' base URLs and the sandbox's pace (env: voiceOptionsFromEnv; issue 41). */
  voice?: VoiceOptions | undefined
  /** Accepted Meta leadgen changes per hospital and minute (env META_WEBHOOK_CHANGES_PER_MINUTE). */
  metaWebhookChangesPerMinute?: number | undefined
  /** SMTP URL; without it emails go to the sandbox outbox. */
  smtpUrl?: string | undefined
  mailFrom?: string
  /** Development and tests: sandbox emails are also written here as files. */
  devOutboxDir?: string | undefined
  /**
   * Production (NODE_ENV=production): without smtpUrl, emails whose link gives access
   * (invitations, trial activations) are refused with a 409, never kept for the outbox.
   */
  requireMailDelivery?: boolean | undefined
  /** Tests only: every email as handed to the mailer (the outbox keeps secrets masked). */
  mailCapture?: MailCapture | undefined
  /**
   * Admins see booking codes in the Sandbox Outbox (development or demo: NODE_ENV is not
   * production, or SEED_DEMO); masked for everyone else and by default.
   */
  revealSandboxCodes?: boolean | undefined
}

export interface App {
  app: FastifyInstance
  auth: Auth
  database: Database
  mailer: Mailer
  /** Shutdown has begun: /readyz answers 503 so load balancers stop sending traffic. */
  drain: () => void
  /** Whether session revocations arrive by NOTIFY (db/notify.ts; decision 022). */
  notifications: () => ListenState
}

/** Fastify's form of TRUST_PROXY: a hop count becomes "trust the n nearest hops". */
function fastifyTrustProxy(setting: false | number | string[]) {
  if (typeof setting !== 'number') return setting
  return (_address: string, hop: number) => hop < setting
}

export async function buildApp(options: AppOptions): Promise<App> {
  const app = Fastify({
    logger: loggerOptions(options.logLevel ?? 'info', options.logStream, options.logFormat),
    logController: new OneLinePerRequest(),
    bodyLimit: 1024 * 1024,
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    routerOptions: { ignoreTrailingSlash: true },
  })
  const { db } = options.database
  const session: SessionPolicy = { absoluteHours: 8, idleMinutes: 30, ...options.session }
  const mailer = createMailer({
    db,
    smtpUrl: options.smtpUrl,
    from: options.mailFrom ?? 'Arogya CRM <no-reply@arogya.local>',
    devOutboxDir: options.devOutboxDir,
    requireDelivery: options.requireMailDelivery,
    capture: options.mailCapture,
    log: app.log,
  })
  const auth = createAuth({
    db,
    secret: options.authSecret,
    baseURL: options.baseURL,
    session,
    mailer,
    log: app.log,
    rateLimit: options.authRateLimit ?? true,
    onSessionCreated: (created) => recordSignIn(db, created, app.log),
  })
  // Signed-in sessions cached for seconds, dropped on revocation by every instance (decision 010).
  const sessions = createSessionCache<CachedActor>(options.sessionCache)
  const revocations = await listenForRevocations(sessions, {
    database: options.database,
    directUrl: options.databaseDirectUrl,
    log: app.log,
  })
  app.addHook('onClose', () => revocations.close())
  const sessionDeps: SessionDeps = {
    auth,
    db,
    policy: session,
    sessions,
    hospitalAccess: (req, actor, access) => applyHospitalAccess(db, req, actor, access),
  }

  registerErrorHandler(app)
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        'img-src': ["'self'", 'data:'],
        // index.html's one inline script: the user's appearance before the first paint.
        'script-src': ["'self'", APPEARANCE_SCRIPT_SOURCE],
        // Radix (scroll lock) and sonner add <style> elements at run time, so inline styles
        // stay allowed; no https: (no styles from other sites). docs/decisions/005.
        'style-src': ["'self'", "'unsafe-inline'"],
        'upgrade-insecure-requests': null,
      },
    },
    // HSTS and Secure cookies follow the scheme the site is served over (security-headers.ts).
    hsts: false,
  })
  registerSecurityHeaders(app, options.baseURL)
  // A script-readable "signed in" hint beside the HttpOnly session cookie (signed-in-hint.ts).
  registerSignedInHint(
    app,
    () => sessionCookieName(auth),
    options.baseURL?.startsWith('https://') ?? false,
  )
  // gzip level 1 and brotli 4 over 1 KB, buffered bodies compressed synchronously (decision 012).
  await registerCompression(app)
  // Per-IP route limits in PostgreSQL, shared by every instance (docs/decisions/008).
  await registerRateLimits(app, db)
  registerSameOriginGuard(app, options.baseURL)
  registerAccessControl(app, sessionDeps)
  // After access control, so the signed-out get 401 and other roles 403 first.
  registerBodylessDeletes(app)

  const throttle = createSignInThrottle(db, { ...defaultThrottlePolicy, ...options.signInThrottle })
  // Old throttle rows go now and then; every instance may do it (an idempotent DELETE).
  const pruning = setInterval(() => {
    throttle
      .prune()
      .catch((error: unknown) => app.log.warn({ err: error }, 'throttle prune failed'))
  }, 10 * 60_000)
  pruning.unref()
  app.addHook('onClose', async () => clearInterval(pruning))
  sessionRoutes(app, {
    ...sessionDeps,
    throttle,
    mailer,
    baseURL: options.baseURL,
    emailRateLimit: options.authRateLimit ?? true,
  })
  const health = healthRoutes(app, { db, notifications: revocations.state })
  patientsRoutes(app, { db })
  dataRightsRoutes(app, { db })
  dataExportRoutes(app, { db, auth })
  leadsRoutes(app, { db })
  leadTrendsRoutes(app, { db })
  // Appointments, their reminders and the home page's upcoming list (issue 26).
  appointmentsRoutes(app, { db })
  // Billing: invoices, payments, PDF, CSV, revenue, and the service catalogue (issue 26).
  invoicesRoutes(app, { db })
  servicesCatalogueRoutes(app, { db })
  campaignsRoutes(app, { db })
  // Settings → General: the hospital's settings and its booking page card (issue 26).
  hospitalSettingsRoutes(app, { db })
  settingsRoutes(app, { db, maxSessionHours: session.absoluteHours })
  // Settings → Appearance: each user's own theme, colour and compact mode (issue 27).
  preferencesRoutes(app, { db })
  accountSecurityRoutes(app, sessionDeps)
  // Sending messages: bulk send, batch progress, contact state, patients' messages (issue 25).
  messagingRoutes(app, { db })
  metaRoutes(app, { db, graph: options.metaGraph, mailer })
  metaWebhookRoutes(app, {
    db,
    graph: options.metaGraph,
    changesPerMinute: options.metaWebhookChangesPerMinute,
  })
  metaAdminRoutes(app, { db })
  demoRequestsRoutes(app, { db })
  // The public booking page /book/:slug and its API (issue 26; no sign-in).
  bookingRoutes(app, {
    db,
    secret: options.authSecret,
    clientDir: options.clientDir,
    baseURL: options.baseURL,
  })
  // FAQ Management and the public FAQ page /h/:slug/faq (issue 28).
  faqsRoutes(app, { db })
  outboxRoutes(app, { db })
  // The Super Admin Dashboard: hospitals, users, onboarding, activities (issue 27).
  platformRoutes(app, { db, mailer, baseURL: options.baseURL })
  // Admin → a hospital admin's team and the public invitation page (issue 27).
  teamRoutes(app, { db, auth, mailer, sessions, baseURL: options.baseURL })
  // Issue 40, item 7: forgot password, the reset page, an admin's reset link for a member.
  passwordResetRoutes(app, { db, auth, mailer, sessions })
  // Support access the hospital grants to the platform's super admins (issue 27, decision 029).
  supportAccessRoutes(app, { db })
  // Lead-generation campaign requests and their platform side (issue 28, decision 034).
  leadGenerationRoutes(app, { db, mailer })
  // Support tickets, hospital and platform sides (issue 28, decision 037).
  supportTicketsRoutes(app, { db, mailer })
  // Live Monitoring: board, feed, summaries, presence and calls (issue 29, decision 040).
  liveMonitoringRoutes(app, { db })
  // Voice calls: click-to-call, call history, dispositions, the staff member's phone (issue 41).
  callsRoutes(app, { db, voice: options.voice, baseURL: options.baseURL })
  voiceSettingsRoutes(app, { db, voice: options.voice, baseURL: options.baseURL })
  // Backups: configurations, runs, downloads, restores (issue 29, decision 039).
  backupRoutes(app, { db })
  // Messaging: providers' webhooks, consents, and live events (one LISTEN 'messaging' per process).
  messagingWebhookRoutes(app, { db, baseURL: options.baseURL })
  voiceWebhookRoutes(app, { db, baseURL: options.baseURL, voice: options.voice })
  callsIncomingRoutes(app, { db, baseURL: options.baseURL, voice: options.voice })
  messagingSettingsApi(app, {
    db,
    baseURL: options.baseURL,
    urls: options.messagingProviders,
    metaGraph: options.metaGraph,
    revealSandboxCodes: options.revealSandboxCodes,
    mailer,
  })
  const messagingHub = await createMessagingHub({
    database: options.database,
    directUrl: options.databaseDirectUrl,
    log: app.log,
  })
  app.addHook('onClose', () => messagingHub.close())
  messagingEventsRoutes(app, { db, hub: messagingHub })

  registerNotFound(
    app,
    options.clientDir
      ? await registerSpa(app, options.clientDir, options.baseURL, (req) =>
          resolveActor(sessionDeps, req),
        )
      : false,
  )
  return {
    app,
    auth,
    database: options.database,
    mailer,
    drain: health.drain,
    notifications: revocations.state,
  }
}
