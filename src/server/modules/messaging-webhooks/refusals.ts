import type { FastifyReply } from 'fastify'
import type { AppDb } from '../../db/client'
import { AppError } from '../../http/app-error'
import { countHit } from '../../http/rate-limit-store'

/**
 * Refused deliveries of the messaging webhooks (WhatsApp Cloud API, Twilio, SendGrid), counted
 * per source IP and per hospital the delivery names, on the model of Meta's lead webhook
 * (docs/decisions/021): counts live in PostgreSQL (rate_limit_hits, so they span instances),
 * and beyond a limit a *refused* delivery gets 429 with Retry-After instead of its 403/400. The
 * counts are consulted only once a delivery is already being refused: a correctly signed
 * delivery is accepted whatever any count says, so nobody can block a hospital's callbacks by
 * forging deliveries for it, and providers' shared sender addresses never stop another
 * hospital's. A key over its limit is remembered in process until its window ends, so a flood
 * then costs no database work at all.
 */

export const REFUSAL_WINDOW_MS = 10 * 60_000
/** Refusals from one source address per window (garbage, unsigned, unknown ids, bad signatures). */
export const REFUSALS_PER_IP = 300
/** Refusals naming one hospital (its path, or its routed ids) per window. */
export const REFUSALS_PER_HOSPITAL = 60

export type WebhookName = 'whatsapp' | 'twilio' | 'sendgrid'

export const messagingRefusalKey = {
  ip: (webhook: WebhookName, ip: string) => `${webhook}-webhook-refused:ip:${ip}`,
  hospital: (webhook: WebhookName, hospitalId: string) =>
    `${webhook}-webhook-refused:hospital:${hospitalId}`,
}

/** A refused delivery: its answer, and the hospital it named (if any) to count it against. */
export class DeliveryRefused extends Error {
  override name = 'DeliveryRefused'
  constructor(
    readonly error: AppError,
    readonly hospitalId: string | null = null,
  ) {
    super(error.message)
  }
}

interface Log {
  warn: (obj: object, msg: string) => void
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** One webhook's refusal counter on one app instance. */
export function createRefusalLimiter(db: AppDb, log: Log, webhook: WebhookName) {
  const blockedUntil = new Map<string, number>()

  function block(key: string, ttlMs: number): void {
    if (blockedUntil.size > 10_000) {
      for (const [k, until] of blockedUntil) if (until <= Date.now()) blockedUntil.delete(k)
    }
    blockedUntil.set(key, Date.now() + ttlMs)
  }

  function limited(reply: FastifyReply, until: number): AppError {
    void reply.header('retry-after', String(Math.max(1, Math.ceil((until - Date.now()) / 1000))))
    return new AppError('RATE_LIMITED', 'Too many refused deliveries. Try again later.')
  }

  return {
    /**
     * Counts a refusal against the source IP and the hospital it named; answers the error to
     * throw: the refusal's own, or 429 once a count is over its limit.
     */
    async refuse(
      error: AppError,
      hospitalId: string | null,
      ip: string,
      reply: FastifyReply,
    ): Promise<AppError> {
      const limits = [
        { key: messagingRefusalKey.ip(webhook, ip), max: REFUSALS_PER_IP },
        ...(hospitalId && UUID.test(hospitalId)
          ? [{ key: messagingRefusalKey.hospital(webhook, hospitalId), max: REFUSALS_PER_HOSPITAL }]
          : []),
      ]
      const until = Math.max(0, ...limits.map((l) => blockedUntil.get(l.key) ?? 0))
      if (until > Date.now()) return limited(reply, until)
      try {
        let over = 0
        for (const { key, max } of limits) {
          const { hits, ttlMs } = await countHit(db, key, REFUSAL_WINDOW_MS)
          if (hits >= max) block(key, ttlMs)
          if (hits > max) over = Math.max(over, Date.now() + ttlMs)
        }
        if (over) return limited(reply, over)
      } catch (countError) {
        log.warn({ err: countError }, 'counting a refused webhook delivery failed')
      }
      return error
    },

    /**
     * Runs a delivery's handler: a DeliveryRefused, or any 4xx AppError (a refusal before the
     * delivery was accepted), is counted and answered through refuse(); anything else passes.
     */
    async guard<T>(
      req: { ip: string },
      reply: FastifyReply,
      hospitalId: string | null,
      handler: () => Promise<T>,
    ): Promise<T> {
      try {
        return await handler()
      } catch (error) {
        if (error instanceof DeliveryRefused)
          throw await this.refuse(error.error, error.hospitalId ?? hospitalId, req.ip, reply)
        if (error instanceof AppError && error.status >= 400 && error.status < 500)
          throw await this.refuse(error, hospitalId, req.ip, reply)
        throw error
      }
    },
  }
}

export type RefusalLimiter = ReturnType<typeof createRefusalLimiter>
