/**
 * Errors that mean "the database (or PgBouncer in front of it) cannot be reached right now",
 * as opposed to a bad query: the API answers them with 503 DATABASE_UNAVAILABLE, and the
 * pool recovers by itself once the database is back (issue 16, faults).
 */

/** Node socket errors on the way to the database. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/**
 * SQLSTATEs: class 08 (connection exception; PgBouncer reports its own failures as 08P01),
 * 57P01-57P03 (admin or crash shutdown, cannot connect now), 53300 (too many connections).
 */
function isUnavailableState(code: string): boolean {
  return code.startsWith('08') || /^57P0[123]$/.test(code) || code === '53300'
}

/** What node-postgres and pg-pool say when a connection dies or cannot be made in time. */
const MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error and is not queryable/,
  /^connect ECONNREFUSED/,
  /server login has been failing/,
  /query_wait_timeout/,
  /server conn crashed/,
  /no more connections allowed/,
  /the database system is (shutting down|starting up|in recovery mode)/,
]

/** True when error, or any error in its `cause` chain (drizzle wraps query errors), is one. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>()
  for (let e = error; e && typeof e === 'object' && !seen.has(e);) {
    seen.add(e)
    const { code, message, errors } = e as { code?: unknown; message?: unknown; errors?: unknown }
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code)) return true
      if (/^[0-9A-Z]{5}$/.test(code) && isUnavailableState(code)) return true
    }
    if (typeof message === 'string' && MESSAGES.some((m) => m.test(message))) return true
    // AggregateError (a host that resolves to several addresses, all refused).
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true
    e = (e as { cause?: unknown }).cause
  }
  return false
}

export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is not reachable. Try again in a moment.'
