import { APIError, betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { admin, twoFactor } from 'better-auth/plugins'
import { defaultAc, userAc } from 'better-auth/plugins/admin/access'
import { eq } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { AppDb } from '../db/client'
import { CLIENT_IP_HEADER } from './client-ip'
import {
  account,
  session,
  twoFactor as twoFactorTable,
  user,
  verification,
} from '../db/schema/auth'
import { PASSWORD_MAX, PASSWORD_MIN } from '../../shared/schemas/auth'
import { authRateLimitStorage } from '../http/rate-limit-store'
import type { Mailer } from '../integrations/email/mailer'
import { MAX_HOSPITAL_SESSION_HOURS, securityFor } from './hospital-policy'
import { initialExpiry, type SessionPolicy } from './session-policy'
import { verificationEmail } from './verification-email'
import { sendPasswordResetLink } from './password-reset-link'
import { RESET_LINK_MINUTES } from '../../shared/schemas/password-reset'

export interface AuthOptions {
  db: AppDb
  secret: string
  baseURL?: string | undefined
  session: SessionPolicy
  mailer: Mailer
  /** Where better-auth's own log lines go (our pino logger); their arguments are dropped. */
  log?: Pick<FastifyBaseLogger, 'error' | 'warn' | 'info' | 'debug'>
  /** Per-IP limits inside better-auth; integration tests turn them off to run many sign-ins. */
  rateLimit: boolean
  /** After a session row is written (a sign-in): live monitoring records it (issue 29). */
  onSessionCreated?: (session: { userId: string; impersonatedBy?: string | null }) => Promise<void>
}

export const SUSPENDED_MESSAGE =
  'Your account is suspended. Please contact your hospital administrator.'
export const INACTIVE_MESSAGE =
  'Your account is inactive. Please contact your hospital administrator.'

/**
 * The super admin's better-auth powers: suspend, list and revoke. No impersonation (a
 * controlled, reasoned, time-limited version comes with the platform screens), no set-role
 * or user creation (hospital roles are ours, in shared/permissions.ts).
 */
const platformAdmin = defaultAc.newRole({
  user: ['list', 'ban', 'get'],
  session: ['list', 'revoke'],
})

/** How long the emailed activation link stays valid. */
export const VERIFICATION_HOURS = 24

/**
 * The origins better-auth trusts (docs/decisions/009), for its Origin check on writes and for
 * every callbackURL, errorCallbackURL, newUserCallbackURL and redirectTo: with BASE_URL only
 * its origin; without it only the origin the request arrived on as the server sees it. The
 * request handed to better-auth is built by `callAuth` from Fastify's host and protocol, which
 * honour X-Forwarded-Host/-Proto only from a hop TRUST_PROXY trusts; client claims are dropped.
 * Never a wildcard: a dynamic `baseURL: { allowedHosts }` would add `http://*` and `https://*`.
 */
export function trustedOriginsFor(
  baseURL: string | undefined,
  request: Request | undefined,
): string[] {
  if (baseURL) return [new URL(baseURL).origin]
  if (!request) return []
  const origin = new URL(request.url).origin
  return origin === 'null' ? [] : [origin]
}

/** better-auth: email + password, server-side sessions, TOTP two-factor and the admin plugin. */
export function createAuth(options: AuthOptions) {
  const { db } = options
  return betterAuth({
    appName: 'Arogya CRM',
    // better-auth's messages go to our logger (redaction, levels); the values it would log
    // beside them (emails, bodies) are dropped.
    // Unexpected errors (a database failure) propagate to our error handler, which answers a
    // generic 500 and logs them without values; better-call would print them, bound
    // parameters and session tokens included, to the console.
    onAPIError: { throw: true },
    logger: {
      log: (level, message) => {
        // Without BASE_URL the per-request origin is deliberate (see baseURL below); the start-up
        // banner says what to set in production, so this warning would only alarm.
        if (!options.baseURL && message.includes('Base URL is not set')) return
        const log = options.log
        log?.[level]({ source: 'better-auth' }, message)
      },
    },
    basePath: '/api/auth',
    secret: options.secret,
    // Without BASE_URL, better-auth derives its base URL per request from the request we build
    // (callAuth), and trusts only that origin (trustedOriginsFor). Not `{ allowedHosts: ['*'] }`,
    // which makes better-auth trust every http and https origin (issue 17).
    baseURL: options.baseURL,
    trustedOrigins: options.baseURL
      ? trustedOriginsFor(options.baseURL, undefined)
      : (request) => trustedOriginsFor(undefined, request),
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user, session, account, verification, twoFactor: twoFactorTable },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      // Accounts come only from the trial sign-up (after email verification) and from
      // administrators; better-auth's own sign-up is off even if a path reached it.
      disableSignUp: true,
      requireEmailVerification: true,
      // Password reset (issue 40, item 7; modules/password-reset): better-auth's own tokens,
      // single use, valid 30 minutes; the link is our /reset-password page (password-reset-link.ts).
      // A reset ends every session of the account; two-factor stays on.
      resetPasswordTokenExpiresIn: RESET_LINK_MINUTES * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user: to, token }, request) => {
        await sendPasswordResetLink(
          { db, mailer: options.mailer, baseURL: options.baseURL, log: options.log },
          { user: to, token },
          request,
        )
      },
    },
    emailVerification: {
      expiresIn: VERIFICATION_HOURS * 3600,
      autoSignInAfterVerification: true,
      sendVerificationEmail: async ({ user: to, url }) => {
        await options.mailer.send(verificationEmail(to.email, url))
      },
    },
    session: {
      // The cookie lives for the longest absolute limit a session may have (the global one, or
      // a hospital's own: Settings -> Security); the server ends each session at its own
      // expires_at (session-policy.ts), and better-auth's own refresh is off.
      expiresIn: Math.max(options.session.absoluteHours, MAX_HOSPITAL_SESSION_HOURS) * 3600,
      disableSessionRefresh: true,
    },
    user: {
      additionalFields: {
        hospitalId: { type: 'string', required: false, input: false },
        firstName: { type: 'string', required: false, input: false },
        lastName: { type: 'string', required: false, input: false },
        username: { type: 'string', required: false, input: false },
        phone: { type: 'string', required: false, input: false },
        isActive: { type: 'boolean', required: false, input: false, defaultValue: true },
        isSuperAdmin: { type: 'boolean', required: false, input: false, defaultValue: false },
      },
    },
    rateLimit: {
      enabled: options.rateLimit,
      // In PostgreSQL, so every instance counts against the same limits (docs/decisions/008).
      customStorage: authRateLimitStorage(db),
      window: 60,
      max: 200,
      customRules: {
        // Sign-in has its own throttle in PostgreSQL (sign-in-throttle.ts), which never
        // counts successes; a per-IP cap here would hold up a clinic behind one address.
        '/sign-in/email': false,
        // Password reset requests have their own limits per address and per IP in PostgreSQL
        // (modules/password-reset); better-auth's 3 a minute per IP would hold up a clinic.
        '/request-password-reset': false,
        '/two-factor/verify-totp': { window: 60, max: 10 },
      },
    },
    advanced: {
      // better-auth skips its origin/CSRF checks when NODE_ENV=test; keep them on everywhere.
      disableOriginCheck: false,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      cookiePrefix: 'arogya',
      // With an https BASE_URL every cookie is Secure (and __Secure- prefixed). Without BASE_URL,
      // cookies on a request that arrived over https get Secure per request (security-headers.ts).
      useSecureCookies: options.baseURL?.startsWith('https://') ?? false,
      // X-Forwarded-Host/-Proto reach better-auth only as rebuilt by authHeaders from Fastify's
      // TRUST_PROXY-aware view; better-auth itself never reads them.
      trustedProxyHeaders: false,
    },
    databaseHooks: {
      session: {
        create: {
          before: async (newSession) => {
            const [row] = await db
              .select({ isActive: user.isActive, banned: user.banned, hospitalId: user.hospitalId })
              .from(user)
              .where(eq(user.id, newSession.userId))
            if (row?.banned)
              throw new APIError('FORBIDDEN', { message: SUSPENDED_MESSAGE, code: 'BANNED_USER' })
            if (row && !row.isActive)
              throw new APIError('FORBIDDEN', { message: INACTIVE_MESSAGE, code: 'INACTIVE_USER' })
            // The limits of the user's hospital (Settings -> Security), or the global ones.
            const { policy } = await securityFor(db, row?.hospitalId ?? null, options.session)
            return { data: { ...newSession, expiresAt: initialExpiry(policy) } }
          },
          after: async (created) => {
            await options.onSessionCreated?.(
              created as { userId: string; impersonatedBy?: string | null },
            )
          },
        },
      },
    },
    plugins: [
      twoFactor({ issuer: 'Arogya CRM' }),
      // Only the platform super admin holds better-auth's user-management powers;
      // hospital roles are enforced by our own permission table (shared/permissions.ts).
      admin({
        roles: {
          super_admin: platformAdmin,
          admin: userAc,
          doctor: userAc,
          nurse: userAc,
          receptionist: userAc,
          viewer: userAc,
        },
        defaultRole: 'viewer',
        adminRoles: ['super_admin'],
        bannedUserMessage: SUSPENDED_MESSAGE,
      }),
    ],
  })
}

export type Auth = ReturnType<typeof createAuth>
