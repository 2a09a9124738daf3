import type { FastifyInstance } from 'fastify'
import { publicRoute } from '../../auth/access'
import { registerMetaJobs } from './meta-jobs'
import { defaultGraphConfig, type MetaRouteDeps } from './meta.routes'
import { createRefusalCounter, WebhookRefusal } from './webhook-refusals'
import { ChangeQuotaExceeded, DEFAULT_CHANGES_PER_MINUTE } from './webhook-quota'
import { acceptDelivery, META_WEBHOOK_BODY_LIMIT, verifySubscription } from './webhook.service'

export interface MetaWebhookDeps extends MetaRouteDeps {
  /** Accepted leadgen changes per hospital and minute (env META_WEBHOOK_CHANGES_PER_MINUTE). */
  changesPerMinute?: number | undefined
}

/**
 * Meta's webhook (public: Meta signs, it does not sign in). GET answers the subscription
 * handshake; POST takes signed leadgen deliveries and leaves one meta.fetch-lead job per lead,
 * answering at once (docs/decisions/016, 021). Registers that job's handler for this process.
 */
export function metaWebhookRoutes(app: FastifyInstance, deps: MetaWebhookDeps): void {
  const { db } = deps
  registerMetaJobs(deps.graph ?? defaultGraphConfig)
  const limits = { changesPerMinute: deps.changesPerMinute ?? DEFAULT_CHANGES_PER_MINUTE }
  // Refusals are counted against the pages and hospitals they name (the IP only for deliveries
  // that name nothing routed); accepted deliveries are never counted or throttled by them.
  const refusals = createRefusalCounter(db, app.log)

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
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
      try {
        const result = await acceptDelivery(db, raw, req.headers['x-hub-signature-256'], limits)
        return reply.status(200).send({ received: true, accepted: result.accepted })
      } catch (error) {
        if (error instanceof ChangeQuotaExceeded) {
          void reply.header('retry-after', String(error.retryAfter))
          throw error
        }
        if (!(error instanceof WebhookRefusal)) throw error
        const answer = await refusals.refuse(error, req.ip)
        if (answer.retryAfter) void reply.header('retry-after', String(answer.retryAfter))
        throw answer.error
      }
    })
  })
}
