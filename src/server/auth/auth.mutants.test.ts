import { getIP } from 'better-auth/api'
import { parseUserInput } from 'better-auth/db'
import { describe, expect, it } from 'vitest'
import type { AppDb } from '../db/client'
import type { MailMessage } from '../integrations/email/mailer'
import {
  type AuthOptions,
  createAuth,
  INACTIVE_MESSAGE,
  SUSPENDED_MESSAGE,
  trustedOriginsFor,
} from './auth'
import { CLIENT_IP_HEADER } from './client-ip'

// better-auth as auth.ts configures it, read back from better-auth itself without a database
// (mutation testing, docs/decisions/024): cookies, lifetimes, limits, trusted origins, client
// addresses, which user fields a client may set, who holds admin powers, where its log lines
// go, and that an origin check and an unexpected error are not swallowed. The same options
// are exercised through the API in tests/integration/auth-mutants.api.test.ts.

interface Line {
  level: string
  obj: object
  msg: string
}

function build(over: Partial<AuthOptions> = {}) {
  const lines: Line[] = []
  const mails: MailMessage[] = []
  const capture = (level: string) => (obj: object, msg: string) => lines.push({ level, obj, msg })
  const failing = new Proxy(
    {},
    {
      get: () => {
        throw new Error('no database in this test')
      },
    },
  )
  const auth = createAuth({
    db: failing as AppDb,
    secret: 'a-test-secret-of-enough-length-0123456789',
    session: { absoluteHours: 8, idleMinutes: 30 },
    mailer: {
      driver: 'sandbox',
      send: (m: MailMessage) => {
        mails.push(m)
        return Promise.resolve('sent' as never)
      },
    },
    log: {
      error: capture('error'),
      warn: capture('warn'),
      info: capture('info'),
      debug: capture('debug'),
    } as unknown as AuthOptions['log'],
    rateLimit: true,
    ...over,
  })
  return { auth, lines, mails }
}

describe('cookies and lifetimes', () => {
  it('names cookies arogya.*, Secure and __Secure- only with an https BASE_URL', async () => {
    const https = await build({ baseURL: 'https://crm.example.in' }).auth.$context
    expect(https.authCookies.sessionToken.name).toBe('__Secure-arogya.session_token')
    expect(https.authCookies.sessionToken.attributes).toMatchObject({
      secure: true,
      httpOnly: true,
      maxAge: 72 * 3600,
    })
    const http = await build({ baseURL: 'http://crm.example.in' }).auth.$context
    expect(http.authCookies.sessionToken.name).toBe('arogya.session_token')
    expect(http.authCookies.sessionToken.attributes.secure).toBeFalsy()
    const none = await build().auth.$context
    expect(none.authCookies.sessionToken.name).toBe('arogya.session_token')
    expect(none.authCookies.sessionToken.attributes.secure).toBeFalsy()
  })

  it('lives for the longest absolute limit a session may have, without better-auth refreshing it', async () => {
    // A hospital may set up to 72 hours (Settings -> Security); the server ends each session
    // at its own expires_at.
    const { auth } = build({ session: { absoluteHours: 12, idleMinutes: 30 } })
    const ctx = await auth.$context
    expect(ctx.sessionConfig.expiresIn).toBe(72 * 3600)
    expect(ctx.authCookies.sessionToken.attributes.maxAge).toBe(72 * 3600)
    expect(ctx.options.session?.disableSessionRefresh).toBe(true)
    const longer = await build({ session: { absoluteHours: 100, idleMinutes: 30 } }).auth.$context
    expect(longer.authCookies.sessionToken.attributes.maxAge).toBe(100 * 3600)
  })

  it('holds passwords to 8..128 characters', async () => {
    const ctx = await build().auth.$context
    expect(ctx.password.config).toEqual({ minPasswordLength: 8, maxPasswordLength: 128 })
  })
})

describe('limits, origins and addresses', () => {
  it('limits per IP in the shared store: 200 a minute, 10 TOTP tries, sign-in left to its throttle', async () => {
    const ctx = await build().auth.$context
    expect(ctx.rateLimit).toMatchObject({
      enabled: true,
      window: 60,
      max: 200,
      customRules: {
        '/sign-in/email': false,
        '/two-factor/verify-totp': { window: 60, max: 10 },
      },
    })
    expect(ctx.rateLimit.customStorage).toBeDefined()
    expect((await build({ rateLimit: false }).auth.$context).rateLimit.enabled).toBe(false)
  })

  it("trusts BASE_URL's origin only, or without it the request's own origin", async () => {
    const fixed = await build({ baseURL: 'https://crm.example.in/' }).auth.$context
    expect(fixed.trustedOrigins).toEqual(['https://crm.example.in', 'https://crm.example.in'])
    expect(await fixed.isTrustedOrigin('https://evil.example')).toBe(false)
    const { auth } = build()
    const perRequest = auth.options.trustedOrigins as (request?: Request) => string[]
    expect(perRequest(new Request('http://clinic.test:8080/api/auth/sign-out'))).toEqual([
      'http://clinic.test:8080',
    ])
  })

  it('trusts no origin for a request whose origin is opaque', () => {
    expect(trustedOriginsFor(undefined, new Request('file:///etc/passwd'))).toEqual([])
    expect(trustedOriginsFor(undefined, new Request('data:text/plain,x'))).toEqual([])
  })

  it("reads the client's address from our header only, never from X-Forwarded-For", () => {
    const { auth } = build()
    const request = new Request('http://clinic.test/api/auth/sign-in/email', {
      headers: { 'x-forwarded-for': '203.0.113.9', [CLIENT_IP_HEADER]: '198.51.100.7' },
    })
    expect(getIP(request, auth.options)).toBe('198.51.100.7')
    const forged = new Request('http://clinic.test/api/auth/sign-in/email', {
      headers: { 'x-forwarded-for': '203.0.113.9' },
    })
    expect(getIP(forged, auth.options)).not.toBe('203.0.113.9')
    expect(auth.options.advanced?.trustedProxyHeaders).toBe(false)
  })

  it('checks the Origin of a write even under NODE_ENV=test', async () => {
    const { auth } = build({ baseURL: 'http://clinic.test', rateLimit: false })
    const res = await auth.handler(
      new Request('http://clinic.test/api/auth/sign-out', {
        method: 'POST',
        headers: {
          origin: 'http://evil.test',
          cookie: 'arogya.session_token=x.y',
          'content-type': 'application/json',
        },
        body: '{}',
      }),
    )
    expect(res.status).toBe(403)
  })

  it('lets an unexpected error (the database failing) reach our error handler', async () => {
    const { auth } = build({ baseURL: 'http://clinic.test' })
    await expect(
      auth.handler(
        new Request('http://clinic.test/api/auth/sign-in/email', {
          method: 'POST',
          headers: { origin: 'http://clinic.test', 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'a@clinic.test', password: 'long-enough-password' }),
        }),
      ),
    ).rejects.toThrow('no database in this test')
  })
})

describe('accounts', () => {
  it('lets no client set the hospital, names, phone, active or super-admin fields', () => {
    const { auth } = build()
    const values: Record<string, unknown> = {
      hospitalId: '00000000-0000-4000-8000-000000000001',
      firstName: 'A',
      lastName: 'B',
      username: 'asha',
      phone: '+919800000000',
      isActive: true,
      isSuperAdmin: true,
    }
    for (const action of ['create', 'update'] as const) {
      for (const [field, value] of Object.entries(values)) {
        // On create, a field with a default gets the default whatever the client sent.
        if (action === 'create' && (field === 'isActive' || field === 'isSuperAdmin')) continue
        expect(() =>
          parseUserInput(auth.options, { name: 'Asha', [field]: value }, action),
        ).toThrow(`${field} is not allowed to be set`)
      }
    }
    const created = parseUserInput(
      auth.options,
      { name: 'Asha', isActive: false, isSuperAdmin: true },
      'create',
    )
    expect(created).toMatchObject({ isActive: true, isSuperAdmin: false })
    expect(created).not.toHaveProperty('hospitalId')
  })

  it('mails the activation link, valid 24 hours, and signs in after it', async () => {
    const { auth, mails } = build()
    const verification = auth.options.emailVerification
    expect(verification?.expiresIn).toBe(24 * 3600)
    expect(verification?.autoSignInAfterVerification).toBe(true)
    await verification?.sendVerificationEmail?.({
      user: { email: 'new@clinic.test' } as never,
      url: 'http://clinic.test/api/auth/verify-email?token=t',
      token: 't',
    })
    expect(mails).toHaveLength(1)
    expect(mails[0]?.to).toBe('new@clinic.test')
    expect(mails[0]?.purpose).toBe('verify-email')
    expect(mails[0]?.text).toContain('http://clinic.test/api/auth/verify-email?token=t')
  })

  it('gives user-management powers to the platform super admin only, and no more than it needs', async () => {
    const { auth } = build()
    const can = async (role: string, permissions: Record<string, string[]>) =>
      (await auth.api.userHasPermission({ body: { role: role as never, permissions } })).success
    expect(await can('super_admin', { user: ['list', 'ban', 'get'] })).toBe(true)
    expect(await can('super_admin', { session: ['list', 'revoke'] })).toBe(true)
    for (const denied of [
      'create',
      'set-role',
      'impersonate',
      'delete',
      'set-password',
      'update',
    ]) {
      expect(await can('super_admin', { user: [denied] }), denied).toBe(false)
    }
    expect(await can('super_admin', { session: ['delete'] })).toBe(false)
    for (const role of ['admin', 'doctor', 'nurse', 'receptionist', 'viewer']) {
      expect(await can(role, { user: ['list'] }), role).toBe(false)
      expect(await can(role, { user: ['ban'] }), role).toBe(false)
      expect(await can(role, { session: ['revoke'] }), role).toBe(false)
    }
    const admin = auth.options.plugins?.find((p) => p.id === 'admin') as
      | { options?: { defaultRole?: string; adminRoles?: string[]; bannedUserMessage?: string } }
      | undefined
    expect(admin?.options).toMatchObject({
      defaultRole: 'viewer',
      adminRoles: ['super_admin'],
      bannedUserMessage: SUSPENDED_MESSAGE,
    })
  })

  it('issues TOTP secrets under the name Arogya CRM', async () => {
    const { auth } = build()
    const ctx = await auth.$context
    expect(ctx.appName).toBe('Arogya CRM')
    const twoFactor = auth.options.plugins?.find((p) => p.id === 'two-factor') as
      { options?: { issuer?: string } } | undefined
    expect(twoFactor?.options?.issuer).toBe('Arogya CRM')
  })
})

describe('a new session', () => {
  /** createAuth's session hook with the users table answering `rows`. */
  function hook(rows: { isActive: boolean; banned: boolean | null }[]) {
    const db = {
      select: () => ({ from: () => ({ where: () => Promise.resolve(rows) }) }),
    } as unknown as AppDb
    const { auth } = build({ db, session: { absoluteHours: 8, idleMinutes: 30 } })
    // better-auth calls it with the session and its endpoint context (typed with one argument).
    const before = auth.options.databaseHooks?.session?.create?.before as
      ((session: object, context: unknown) => Promise<unknown>) | undefined
    if (!before) throw new Error('no session hook')
    return (userId: string) =>
      before(
        {
          id: 's',
          userId,
          token: 't',
          expiresAt: new Date(Date.now() + 8 * 3_600_000),
          createdAt: new Date(),
          updatedAt: new Date(),
        },
        undefined as never,
      )
  }

  it('is refused for a suspended account by our own check, with its message', async () => {
    await expect(hook([{ isActive: true, banned: true }])('u')).rejects.toMatchObject({
      statusCode: 403,
      body: { code: 'BANNED_USER', message: SUSPENDED_MESSAGE },
    })
    await expect(hook([{ isActive: false, banned: false }])('u')).rejects.toMatchObject({
      statusCode: 403,
      body: { code: 'INACTIVE_USER', message: INACTIVE_MESSAGE },
    })
  })

  it('starts with the idle deadline, also when the account row is not found', async () => {
    for (const rows of [[{ isActive: true, banned: false }], []]) {
      const started = Date.now()
      const result = (await hook(rows)('u')) as { data: { expiresAt: Date; userId: string } }
      expect(result.data.userId).toBe('u')
      const idle = result.data.expiresAt.getTime() - started
      expect(idle).toBeGreaterThanOrEqual(30 * 60_000 - 1_000)
      expect(idle).toBeLessThanOrEqual(30 * 60_000 + 1_000)
    }
  })
})

describe("better-auth's log lines", () => {
  it('go to our logger with their level and source', () => {
    const { auth, lines } = build({ baseURL: 'https://crm.example.in' })
    const log = auth.options.logger?.log
    log?.('warn', 'Something to know')
    log?.('error', 'Base URL is not set')
    expect(lines).toEqual([
      { level: 'warn', obj: { source: 'better-auth' }, msg: 'Something to know' },
      { level: 'error', obj: { source: 'better-auth' }, msg: 'Base URL is not set' },
    ])
  })

  it('leave out only the missing-base-URL warning when BASE_URL is deliberately unset', () => {
    const { auth, lines } = build()
    const log = auth.options.logger?.log
    log?.('warn', 'Base URL is not set. Falling back to the request')
    log?.('info', 'Other news')
    expect(lines).toEqual([{ level: 'info', obj: { source: 'better-auth' }, msg: 'Other news' }])
  })

  it('are dropped without a logger', () => {
    const { auth } = build({ log: undefined })
    expect(() => auth.options.logger?.log?.('warn', 'nobody listens')).not.toThrow()
  })
})
