import type { FastifyInstance, FastifyReply } from 'fastify'
import { publicRoute } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { publicUrl } from '../../http/public-url'
import { createRefusalLimiter } from '../messaging-webhooks/refusals'
import { formParams, TWILIO_BODY_LIMIT } from '../messaging-webhooks/twilio.routes'
import type { VoiceOptions } from '../calls/voice-registry'
import { exotelCallback, twilioVoiceCallback } from './callbacks.service'
import { registerVoiceWebhookJobs } from './voice-webhook-jobs'
import { setVoiceJobOptions } from './voice-job-options'

export interface VoiceWebhookDeps {
  db: AppDb
  /** The public URL Twilio signs (env BASE_URL; http/public-url.ts). */
  baseURL?: string | undefined
  /** Providers' base URLs for the jobs that confirm callbacks (env: voiceOptionsFromEnv). */
  voice?: VoiceOptions | undefined
  /** How old a live call must be before the reconcile job asks its provider (default 2 h). */
  reconcileAfterMs?: number | undefined
}

/**
 * Voice providers' callbacks (issue 41; public: Exotel by the hospital's callback token in the
 * query, Twilio by X-Twilio-Signature). Both answer at once and leave the work to a
 * voice.callback job; form-encoded (Exotel also JSON), at most 64 KiB.
 */
export function voiceWebhookRoutes(app: FastifyInstance, deps: VoiceWebhookDeps): void {
  const { db } = deps
  registerVoiceWebhookJobs()
  setVoiceJobOptions(db, { voice: deps.voice, reconcileAfterMs: deps.reconcileAfterMs })
  const limiter = createRefusalLimiter(db, app.log, 'twilio')
  const ok = (reply: FastifyReply) => reply.status(200).send({ ok: true })

  void app.register(async (scope) => {
    // Providers post forms (Exotel JSON too): a text/plain body is a 415 here, as elsewhere.
    scope.removeContentTypeParser('text/plain')
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: TWILIO_BODY_LIMIT },
      (_req, body, done) => done(null, formParams(typeof body === 'string' ? body : '')),
    )
    const limits = { config: publicRoute, bodyLimit: TWILIO_BODY_LIMIT }

    scope.post('/api/webhooks/exotel/:hospitalId/status', limits, async (req, reply) => {
      const { hospitalId } = req.params as { hospitalId: string }
      const t = (req.query as { t?: unknown }).t
      const token = typeof t === 'string' ? t : ''
      await exotelCallback({ db, hospitalId, token, body: req.body })
      return ok(reply)
    })

    scope.post('/api/webhooks/twilio/:hospitalId/voice', limits, async (req, reply) => {
      const { hospitalId } = req.params as { hospitalId: string }
      const leg = (req.query as { leg?: unknown }).leg
      await limiter.guard(req, reply, hospitalId, () =>
        twilioVoiceCallback({
          db,
          hospitalId,
          url: publicUrl(deps.baseURL, req, req.url),
          params:
            req.body && typeof req.body === 'object'
              ? (req.body as Record<string, string | string[]>)
              : {},
          signature: req.headers['x-twilio-signature'],
          leg: typeof leg === 'string' ? leg : leg === undefined ? undefined : '',
        }),
      )
      return reply
        .status(200)
        .type('text/xml; charset=utf-8')
        .send('<?xml version="1.0" encoding="UTF-8"?><Response/>')
    })
  })
}
