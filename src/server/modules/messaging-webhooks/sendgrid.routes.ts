import type { FastifyInstance } from 'fastify'
import { publicRoute } from '../../auth/access'
import { createRefusalLimiter } from './refusals'
import { acceptSendGrid, SENDGRID_BODY_LIMIT } from './sendgrid.service'
import type { MessagingWebhookDeps } from './twilio.routes'

/** SendGrid's event webhook for one hospital; JSON kept raw for the signature check. */
export function sendGridWebhookRoutes(app: FastifyInstance, deps: MessagingWebhookDeps): void {
  // Refusals counted per source IP and per hospital in the path (refusals.ts); a correctly
  // signed batch is never counted or slowed.
  const limiter = createRefusalLimiter(deps.db, app.log, 'sendgrid')
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: SENDGRID_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    )
    scope.post(
      '/api/webhooks/sendgrid/:hospitalId',
      { config: publicRoute },
      async (req, reply) => {
        const hospitalId = (req.params as { hospitalId: string }).hospitalId
        const result = await limiter.guard(req, reply, hospitalId, () =>
          acceptSendGrid({
            db: deps.db,
            hospitalId,
            raw: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
            signature: req.headers['x-twilio-email-event-webhook-signature'],
            timestamp: req.headers['x-twilio-email-event-webhook-timestamp'],
            log: req.log,
          }),
        )
        return reply.status(200).send({ received: true, moved: result.moved })
      },
    )
  })
}
