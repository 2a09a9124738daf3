import type { FastifyInstance } from 'fastify'
import { publicRoute } from '../../auth/access'
import { acceptSendGrid, SENDGRID_BODY_LIMIT } from './sendgrid.service'
import type { MessagingWebhookDeps } from './twilio.routes'

/** SendGrid's event webhook for one hospital; JSON kept raw for the signature check. */
export function sendGridWebhookRoutes(app: FastifyInstance, deps: MessagingWebhookDeps): void {
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
        const result = await acceptSendGrid({
          db: deps.db,
          hospitalId: (req.params as { hospitalId: string }).hospitalId,
          raw: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
          signature: req.headers['x-twilio-email-event-webhook-signature'],
          timestamp: req.headers['x-twilio-email-event-webhook-timestamp'],
          log: req.log,
        })
        return reply.status(200).send({ received: true, moved: result.moved })
      },
    )
  })
}
