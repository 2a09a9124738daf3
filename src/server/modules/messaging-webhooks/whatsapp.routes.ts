import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { publicRoute } from '../../auth/access'
import { AppError } from '../../http/app-error'
import { hospitalOfVerifyToken } from './meta-routing'
import { createRefusalLimiter } from './refusals'
import type { MessagingWebhookDeps } from './twilio.routes'
import { acceptWhatsapp, WHATSAPP_WEBHOOK_BODY_LIMIT } from './whatsapp.service'

const refused = () => new AppError('FORBIDDEN', 'Verification failed')

/**
 * Meta's WhatsApp Cloud API webhook (public: Meta signs). GET answers the subscription
 * handshake with hub.challenge when hub.verify_token is one a hospital configured (found by its
 * SHA-256 in the index of proven ids: no hospital's settings are decrypted); POST takes
 * signed deliveries (statuses, inbound messages, template status updates), the signature
 * checked over the raw bytes: in this scope JSON arrives as a Buffer.
 */
export function whatsappWebhookRoutes(app: FastifyInstance, deps: MessagingWebhookDeps): void {
  const { db } = deps
  // Refusals (handshakes and deliveries) counted per source IP and per routed hospital; an
  // accepted, correctly signed delivery is never counted or slowed (refusals.ts).
  const limiter = createRefusalLimiter(db, app.log, 'whatsapp')
  app.get('/api/webhooks/whatsapp', { config: publicRoute }, (req, reply) =>
    limiter.guard(req, reply, null, () => handshake(req, reply)),
  )

  async function handshake(req: FastifyRequest, reply: FastifyReply) {
    const query = req.query as Record<string, unknown>
    const token = query['hub.verify_token']
    const challenge = query['hub.challenge']
    if (
      query['hub.mode'] !== 'subscribe' ||
      typeof token !== 'string' ||
      !token ||
      token.length > 1024 ||
      typeof challenge !== 'string' ||
      !/^[A-Za-z0-9_.-]{1,512}$/.test(challenge)
    ) {
      throw refused()
    }
    if (!(await hospitalOfVerifyToken(db, token))) throw refused()
    return reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(challenge)
  }

  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: WHATSAPP_WEBHOOK_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    )
    scope.post('/api/webhooks/whatsapp', { config: publicRoute }, async (req, reply) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
      const result = await limiter.guard(req, reply, null, () =>
        acceptWhatsapp({ db, raw, signature: req.headers['x-hub-signature-256'], log: req.log }),
      )
      return reply.status(200).send({ received: true, changes: result.changes })
    })
  })
}
