import { describe, expect, it } from 'vitest'
import { AUTH_BASE, authEndpoints, matchAuthEndpoint } from './endpoints'
import { initialExpiry, TOUCH_EVERY_MS, wantedExpiry } from './session-policy'
import { existingAccountEmail, verificationEmail } from './verification-email'

// Which better-auth endpoints are reachable, session deadlines and the account emails
// (mutation testing, docs/decisions/024).

describe('authEndpoints', () => {
  it('lets exactly these endpoints reach better-auth, with their enrolment rule and log events', () => {
    expect(AUTH_BASE).toBe('/api/auth')
    expect(
      authEndpoints.map((e) => [e.method, e.path, e.beforeEnrolment ?? false, e.events ?? null]),
    ).toEqual([
      ['GET', '/get-session', true, null],
      ['POST', '/sign-out', true, { ok: 'sign_out' }],
      ['GET', '/list-sessions', false, null],
      ['POST', '/revoke-session', false, { ok: 'session.revoked' }],
      ['POST', '/revoke-sessions', false, { ok: 'session.revoked' }],
      ['POST', '/revoke-other-sessions', false, { ok: 'session.revoked' }],
      [
        'POST',
        '/change-password',
        false,
        { ok: 'password.changed', failed: 'password.change_failed' },
      ],
      ['GET', '/verify-email', true, { ok: 'email.verified' }],
      ['POST', '/send-verification-email', true, null],
      ['POST', '/two-factor/enable', true, { ok: 'two_factor.enrolment_started' }],
      ['POST', '/two-factor/get-totp-uri', true, null],
      [
        'POST',
        '/two-factor/verify-totp',
        true,
        { ok: 'two_factor.enabled', failed: 'two_factor.failure' },
      ],
      [
        'POST',
        '/two-factor/verify-backup-code',
        false,
        { ok: 'sign_in.success', failed: 'two_factor.failure' },
      ],
      [
        'POST',
        '/two-factor/generate-backup-codes',
        false,
        { ok: 'two_factor.backup_codes_regenerated' },
      ],
      ['POST', '/two-factor/disable', false, { ok: 'two_factor.disabled' }],
      ['POST', '/admin/ban-user', false, { ok: 'user.suspended' }],
      ['POST', '/admin/unban-user', false, { ok: 'user.unsuspended' }],
      ['POST', '/admin/revoke-user-sessions', false, { ok: 'user.sessions_revoked' }],
    ])
  })
})

describe('matchAuthEndpoint', () => {
  it('matches the method and the raw path exactly, ignoring the query', () => {
    expect(matchAuthEndpoint('GET', '/api/auth/get-session')?.path).toBe('/get-session')
    expect(matchAuthEndpoint('HEAD', '/api/auth/get-session')?.path).toBe('/get-session')
    expect(matchAuthEndpoint('GET', '/api/auth/verify-email?token=t&callbackURL=/')?.path).toBe(
      '/verify-email',
    )
    expect(matchAuthEndpoint('POST', '/api/auth/sign-out?')?.path).toBe('/sign-out')
    for (const [method, url] of [
      ['POST', '/api/auth/get-session'],
      ['HEAD', '/api/auth/sign-out'],
      ['GET', '/api/auth/get-session/'],
      ['GET', '/api/auth//get-session'],
      ['GET', '/api/auth/./get-session'],
      ['GET', '/api/auth/Get-Session'],
      ['GET', '/api/auth/get%2Dsession'],
      ['POST', '/api/auth/sign-up/email'],
      ['POST', '/api/auth/admin/impersonate-user'],
      ['GET', '/get-session'],
      ['GET', '?/api/auth/get-session'],
    ] as const) {
      expect(matchAuthEndpoint(method, url), `${method} ${url}`).toBeNull()
    }
  })
})

describe('session deadlines', () => {
  const policy = { absoluteHours: 12, idleMinutes: 30 }
  const now = Date.UTC(2026, 10, 25, 10, 0, 0)

  it('start at the idle limit, never beyond the absolute one', () => {
    expect(initialExpiry(policy, now).getTime()).toBe(now + 30 * 60_000)
    expect(initialExpiry({ absoluteHours: 1, idleMinutes: 90 }, now).getTime()).toBe(
      now + 3_600_000,
    )
  })

  it('move on use at most once a minute, capped at sign-in plus the absolute limit', () => {
    expect(TOUCH_EVERY_MS).toBe(60_000)
    const createdAt = new Date(now - 60 * 60_000)
    const fresh = { createdAt, expiresAt: new Date(now + 30 * 60_000) }
    expect(wantedExpiry(fresh, policy, now)).toBeNull()
    const minuteOld = { createdAt, expiresAt: new Date(now + 29 * 60_000) }
    expect(wantedExpiry(minuteOld, policy, now)?.getTime()).toBe(now + 30 * 60_000)
    const almost = { createdAt, expiresAt: new Date(now + 29 * 60_000 + 1) }
    expect(wantedExpiry(almost, policy, now)).toBeNull()
    const late = {
      createdAt: new Date(now - 12 * 3_600_000 + 10 * 60_000),
      expiresAt: new Date(now),
    }
    expect(wantedExpiry(late, policy, now)?.getTime()).toBe(now + 10 * 60_000)
  })
})

describe('account emails', () => {
  it('send the activation link, valid 24 hours', () => {
    expect(
      verificationEmail('a@b.in', 'https://crm.example.in/api/auth/verify-email?token=t'),
    ).toEqual({
      to: 'a@b.in',
      purpose: 'verify-email',
      subject: 'Activate your Arogya CRM trial',
      // Issue 39: the link's token is declared, so the outbox stores it masked.
      secrets: ['t'],
      text:
        'Welcome to Arogya CRM.\n\nOpen this link to activate your account and start your 14-day free trial:\n' +
        'https://crm.example.in/api/auth/verify-email?token=t\n\n' +
        'The link is valid for 24 hours. If you did not sign up, you can ignore this email.',
    })
  })
  it('tell the owner of an existing account, without changing anything', () => {
    expect(existingAccountEmail('a@b.in', 'https://crm.example.in/login')).toEqual({
      to: 'a@b.in',
      purpose: 'trial-existing-account',
      subject: 'You already have an Arogya CRM account',
      text:
        'Someone (perhaps you) tried to start an Arogya CRM trial with this email address.\n' +
        'An account with this address already exists, so nothing was changed.\n\n' +
        'Sign in here: https://crm.example.in/login\n\n' +
        'If this was not you, you can ignore this email.',
    })
  })
})
