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
import type { Mailer } from '../integrations/email/mailer'
import { initialExpiry, type SessionPolicy } from './session-policy'
import { verificationEmail } from './verification-email'

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

function originOf(request: Request | undefined): string[] {
  if (!request) return []
  const url = new URL(request.url)
  const host = request.headers.get('host')
  return host ? [`${url.protocol}//${host}`] : [url.origin]
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
        const log = options.log
        log?.[level]({ source: 'better-auth' }, message)
      },
    },
    basePath: '/api/auth',
    secret: options.secret,
    // Without BASE_URL (local use), links and cookies follow the host the request came to.
    baseURL: options.baseURL ?? { allowedHosts: ['*'], protocol: 'auto' },
    // Same-origin only: the page that posts must be served by the host it posts to.
    trustedOrigins: (request) => [
      ...(options.baseURL ? [options.baseURL] : []),
      ...originOf(request),
    ],
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
    },
    emailVerification: {
      expiresIn: VERIFICATION_HOURS * 3600,
      autoSignInAfterVerification: true,
      sendVerificationEmail: async ({ user: to, url }) => {
        await options.mailer.send(verificationEmail(to.email, url))
      },
    },
    session: {
      // The cookie lives for the absolute limit; the idle limit moves expires_at on use
      // (session-policy.ts), and better-auth's own refresh is off.
      expiresIn: options.session.absoluteHours * 3600,
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
      window: 60,
      max: 200,
      customRules: {
        // Sign-in has its own throttle in PostgreSQL (sign-in-throttle.ts), which never
        // counts successes; a per-IP cap here would hold up a clinic behind one address.
        '/sign-in/email': false,
        '/two-factor/verify-totp': { window: 60, max: 10 },
      },
    },
    advanced: {
      // better-auth skips its origin/CSRF checks when NODE_ENV=test; keep them on everywhere.
      disableOriginCheck: false,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      cookiePrefix: 'arogya',
      useSecureCookies: options.baseURL?.startsWith('https://') ?? false,
    },
    databaseHooks: {
      session: {
        create: {
          before: async (newSession) => {
            const [row] = await db
              .select({ isActive: user.isActive, banned: user.banned })
              .from(user)
              .where(eq(user.id, newSession.userId))
            if (row?.banned)
              throw new APIError('FORBIDDEN', { message: SUSPENDED_MESSAGE, code: 'BANNED_USER' })
            if (row && !row.isActive)
              throw new APIError('FORBIDDEN', { message: INACTIVE_MESSAGE, code: 'INACTIVE_USER' })
            return { data: { ...newSession, expiresAt: initialExpiry(options.session) } }
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
