import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { publicRoute } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { publicUrl } from '../../http/public-url'
import { createRefusalLimiter } from './refusals'
import { type TwilioParams, twilioInbound, twilioStatus } from './twilio.service'

/** Twilio's callbacks are small; anything larger is not Twilio (413). */
export const TWILIO_BODY_LIMIT = 64 * 1024

export interface MessagingWebhookDeps {
  db: AppDb
  /** The public URL Twilio signs (env BASE_URL; http/public-url.ts). */
  baseURL?: string | undefined
}

/** A form body's parameters; a repeated name keeps each value in order (as Twilio signs them). */
export function formParams(body: string): TwilioParams {
  const params: TwilioParams = {}
  for (const [name, value] of new URLSearchParams(body)) {
    const had = params[name]
    params[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value]
  }
  return params
}

/** Twilio expects TwiML back; an empty <Response/> sends no reply message. */
const twiml = (reply: FastifyReply) =>
  reply
    .status(200)
    .type('text/xml; charset=utf-8')
    .send('<?xml version="1.0" encoding="UTF-8"?><Response/>')

/**
 * Twilio's status callback and inbound-message webhook for one hospital (public: Twilio signs
 * with the hospital's auth token, checked over the BASE_URL-based URL; 403 otherwise and
 * nothing changes). Form-encoded only: other types 415.
 */
export function twilioWebhookRoutes(app: FastifyInstance, deps: MessagingWebhookDeps): void {
  const { db } = deps
  // Refusals counted per source IP and per hospital in the path (refusals.ts); a correctly
  // signed callback is never counted or slowed.
  const limiter = createRefusalLimiter(db, app.log, 'twilio')
  const hospitalOf = (req: FastifyRequest) => (req.params as { hospitalId: string }).hospitalId
  const common = (req: FastifyRequest) => ({
    db,
    hospitalId: (req.params as { hospitalId: string }).hospitalId,
    url: publicUrl(deps.baseURL, req, req.url),
    params: typeof req.body === 'string' ? formParams(req.body) : {},
    signature: req.headers['x-twilio-signature'],
    log: req.log,
  })
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: TWILIO_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    )
    scope.post(
      '/api/webhooks/twilio/:hospitalId/status',
      { config: publicRoute },
      async (req, reply) => {
        const c = (req.query as { c?: unknown }).c
        await limiter.guard(req, reply, hospitalOf(req), () =>
          twilioStatus({
            ...common(req),
            communicationId: typeof c === 'string' || c === undefined ? c : '',
          }),
        )
        return twiml(reply)
      },
    )
    scope.post(
      '/api/webhooks/twilio/:hospitalId/inbound',
      { config: publicRoute },
      async (req, reply) => {
        await limiter.guard(req, reply, hospitalOf(req), () => twilioInbound(common(req)))
        return twiml(reply)
      },
    )
  })
}
