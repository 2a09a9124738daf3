import type { LightMyRequestResponse } from 'fastify'

/**
 * How long a change made outside an instance (another instance, psql, a test's own SQL) may
 * take to reach that instance's session cache (docs/decisions/010; issue 16: 2 s).
 */
export const REVOCATION_MS = 2_000

/**
 * Sends a request again until it answers `status` (at most REVOCATION_MS), and returns the
 * last answer with `elapsedMs`: how long after the first try the answering request was sent.
 * For sessions changed in the database behind the app's back: on PostgreSQL the NOTIFY that
 * drops the cached session arrives on another connection a moment after COMMIT.
 */
export async function untilStatus(
  send: () => Promise<LightMyRequestResponse>,
  status: number,
  ms = REVOCATION_MS,
): Promise<LightMyRequestResponse & { elapsedMs: number }> {
  const started = Date.now()
  for (;;) {
    // When the answering request was sent: a slow answer is not a late revocation.
    const elapsedMs = Date.now() - started
    const res = await send()
    if (res.statusCode === status || Date.now() - started > ms) {
      return Object.assign(res, { elapsedMs })
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
