import type { FastifyInstance } from 'fastify'
import { publicRoute } from '../../auth/access'
import { AppError } from '../../http/app-error'
import { countHit } from '../../http/rate-limit-store'
import { registerMetaJobs } from './meta-jobs'
import { defaultGraphConfig, type MetaRouteDeps } from './meta.routes'
import { acceptDelivery, META_WEBHOOK_BODY_LIMIT, verifySubscription } from './webhook.service'

/** Refused deliveries (bad signature, unknown page, not Meta's shape) allowed per IP... */
export const WEBHOOK_REFUSALS_PER_WINDOW = 30
/** ...in this window; beyond it the IP gets 429 until the window ends. */
export const WEBHOOK_REFUSAL_WINDOW_MS = 10 * 60_000

/**
 * Meta's webhook (public: Meta signs, it does not sign in). GET answers the subscription
 * handshake; POST takes signed leadgen deliveries and leaves one meta.fetch-lead job per lead,
 * answering at once (docs/decisions/016). Registers that job's handler for this process.
 */
export function metaWebhookRoutes(app: FastifyInstance, deps: MetaRouteDeps): void {
  const { db } = deps
  registerMetaJobs(deps.graph ?? defaultGraphConfig)

  // Only refusals are counted, in PostgreSQL like every limit (so the count spans instances);
  // accepted deliveries cost no extra round trip and are never throttled (a lead must not be
  // turned away). An IP over the limit is remembered here until its window ends, so a flood
  // of forged deliveries costs neither signature checks nor database work.
  const blockedUntil = new Map<string, number>()
  const isBlocked = (ip: string): number => {
    const until = blockedUntil.get(ip) ?? 0
    if (until > Date.now()) return until
    if (until) blockedUntil.delete(ip)
    return 0
  }
  async function countRefusal(ip: string): Promise<void> {
    try {
      const { hits, ttlMs } = await countHit(
        db,
        `meta-webhook-refused:${ip}`,
        WEBHOOK_REFUSAL_WINDOW_MS,
      )
      if (hits < WEBHOOK_REFUSALS_PER_WINDOW) return
      if (blockedUntil.size > 10_000) {
        for (const [key, until] of blockedUntil) if (until <= Date.now()) blockedUntil.delete(key)
      }
      blockedUntil.set(ip, Date.now() + ttlMs)
    } catch (error) {
      app.log.warn({ err: error }, 'counting a refused webhook delivery failed')
    }
  }

  app.get('/api/webhooks/meta', { config: publicRoute }, async (req, reply) => {
    const challenge = await verifySubscription(db, req.query as Record<string, unknown>)
    return reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(challenge)
  })

  // The signature covers the raw bytes: in this scope JSON arrives as a Buffer (capped at
  // META_WEBHOOK_BODY_LIMIT: 413 beyond), and no other content type is accepted (415). Meta
  // sends neither Origin nor Sec-Fetch-Site, so the same-origin guard passes it as it passes
  // any server-to-server call, while a browser's cross-site POST is still refused there.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: META_WEBHOOK_BODY_LIMIT },
      (_req, body, done) => {
        done(null, body)
      },
    )
    scope.post('/api/webhooks/meta', { config: publicRoute }, async (req, reply) => {
      const until = isBlocked(req.ip)
      if (until) {
        void reply.header(
          'retry-after',
          String(Math.max(1, Math.ceil((until - Date.now()) / 1000))),
        )
        throw new AppError('RATE_LIMITED', 'Too many refused deliveries. Try again later.')
      }
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
      try {
        const result = await acceptDelivery(db, raw, req.headers['x-hub-signature-256'])
        return reply.status(200).send({ received: true, accepted: result.accepted })
      } catch (error) {
        if (error instanceof AppError && error.status < 500) await countRefusal(req.ip)
        throw error
      }
    })
  })
}
