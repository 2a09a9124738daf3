import type { SecurityEventName } from '../modules/security/security-log'

/** A better-auth endpoint that the app exposes under /api/auth. */
export interface AuthEndpoint {
  method: 'GET' | 'POST'
  /** Path below /api/auth, exactly as better-auth names it. */
  path: string
  /** Open to a platform account that has not turned on two-factor yet (it must enrol first). */
  beforeEnrolment?: true
  /** Security-log entries by outcome (2xx/3xx, or 4xx). */
  events?: { ok?: SecurityEventName; failed?: SecurityEventName }
}

export const AUTH_BASE = '/api/auth'

/**
 * The only better-auth endpoints that reach its handler. Everything else under /api/auth
 * (sign-up, impersonation, set-role, user creation and deletion, social sign-in, password
 * reset, which only modules/password-reset calls, ...) answers 404 without better-auth seeing it.
 * Sign-in itself has its own throttled route (modules/session/sign-in.routes.ts).
 */
export const authEndpoints: readonly AuthEndpoint[] = [
  { method: 'GET', path: '/get-session', beforeEnrolment: true },
  { method: 'POST', path: '/sign-out', beforeEnrolment: true, events: { ok: 'sign_out' } },
  { method: 'GET', path: '/list-sessions' },
  { method: 'POST', path: '/revoke-session', events: { ok: 'session.revoked' } },
  { method: 'POST', path: '/revoke-sessions', events: { ok: 'session.revoked' } },
  { method: 'POST', path: '/revoke-other-sessions', events: { ok: 'session.revoked' } },
  {
    method: 'POST',
    path: '/change-password',
    events: { ok: 'password.changed', failed: 'password.change_failed' },
  },
  { method: 'GET', path: '/verify-email', beforeEnrolment: true, events: { ok: 'email.verified' } },
  { method: 'POST', path: '/send-verification-email', beforeEnrolment: true },
  {
    method: 'POST',
    path: '/two-factor/enable',
    beforeEnrolment: true,
    events: { ok: 'two_factor.enrolment_started' },
  },
  { method: 'POST', path: '/two-factor/get-totp-uri', beforeEnrolment: true },
  {
    method: 'POST',
    path: '/two-factor/verify-totp',
    beforeEnrolment: true,
    events: { ok: 'two_factor.enabled', failed: 'two_factor.failure' },
  },
  {
    method: 'POST',
    path: '/two-factor/verify-backup-code',
    events: { ok: 'sign_in.success', failed: 'two_factor.failure' },
  },
  {
    method: 'POST',
    path: '/two-factor/generate-backup-codes',
    events: { ok: 'two_factor.backup_codes_regenerated' },
  },
  { method: 'POST', path: '/two-factor/disable', events: { ok: 'two_factor.disabled' } },
  { method: 'POST', path: '/admin/ban-user', events: { ok: 'user.suspended' } },
  { method: 'POST', path: '/admin/unban-user', events: { ok: 'user.unsuspended' } },
  { method: 'POST', path: '/admin/revoke-user-sessions', events: { ok: 'user.sessions_revoked' } },
]

const byKey = new Map(authEndpoints.map((e) => [`${e.method} ${AUTH_BASE}${e.path}`, e]))

/**
 * The endpoint a request names, matched on the raw path exactly as sent: a path that would
 * change when normalised (dot segments, %-encoding, doubled or trailing slashes, other
 * letter case) matches nothing, so it can never reach better-auth in another form than the
 * one our limits and rules saw.
 */
export function matchAuthEndpoint(method: string, rawUrl: string): AuthEndpoint | null {
  const q = rawUrl.indexOf('?')
  const path = q === -1 ? rawUrl : rawUrl.slice(0, q)
  return byKey.get(`${method === 'HEAD' ? 'GET' : method} ${path}`) ?? null
}
