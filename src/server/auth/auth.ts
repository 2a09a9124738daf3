import { APIError, betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { admin, twoFactor } from 'better-auth/plugins'
import { adminAc, userAc } from 'better-auth/plugins/admin/access'
import { eq } from 'drizzle-orm'
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

export interface AuthOptions {
  db: AppDb
  secret: string
  baseURL?: string | undefined
  sessionHours: number
  /** Per-IP limits inside better-auth; integration tests turn them off to run many sign-ins. */
  rateLimit: boolean
}

export const SUSPENDED_MESSAGE =
  'Your account is suspended. Please contact your hospital administrator.'
export const INACTIVE_MESSAGE =
  'Your account is inactive. Please contact your hospital administrator.'

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
      autoSignIn: true,
    },
    session: {
      // Absolute lifetime: a session is never extended by use.
      expiresIn: options.sessionHours * 3600,
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
        '/sign-in/email': { window: 60, max: 20 },
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
            return { data: newSession }
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
          super_admin: adminAc,
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
