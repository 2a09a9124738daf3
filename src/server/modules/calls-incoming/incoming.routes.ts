import type { FastifyInstance, FastifyRequest } from 'fastify'
import { uuidParam } from '../../../shared/schemas/common'
import { ringGroupInput, sandboxIncomingInput } from '../../../shared/schemas/calls-incoming'
import { actingMember, publicRoute, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { publicUrl } from '../../http/public-url'
import { registerCallJobs } from '../calls/call-jobs'
import { defaultVoiceOptions, type VoiceOptions } from '../calls/voice-registry'
import { createRefusalLimiter } from '../messaging-webhooks/refusals'
import { formParams, TWILIO_BODY_LIMIT } from '../messaging-webhooks/twilio.routes'
import { exotelIncoming } from './exotel-incoming'
import { getIncomingCard } from './incoming-card'
import { getRingGroup, setRingGroup } from './ring-group.service'
import { simulateIncoming } from './sandbox-incoming'
import { twilioIncoming } from './twilio-incoming'

/**
 * Incoming and missed calls (issue 41; the list of routes: src/shared/schemas/calls-incoming.ts).
 * The providers' webhooks are public (Exotel: the hospital's callback token in the query, 404
 * when wrong; Twilio: X-Twilio-Signature, 403 when wrong), form-encoded (Exotel also a GET's
 * query, or JSON), at most 64 KiB, and answered at once: the call's end is applied later.
 */
export function callsIncomingRoutes(
  app: FastifyInstance,
  deps: { db: AppDb; baseURL?: string | undefined; voice?: VoiceOptions | undefined },
): void {
  const { db } = deps
  const voice = deps.voice ?? defaultVoiceOptions
  registerCallJobs()
  const limiter = createRefusalLimiter(db, app.log, 'twilio')
  const read = { config: requirePermission('leads:read') }

  void app.register(async (scope) => {
    // Providers post forms (Exotel JSON too): a text/plain body is a 415 here, as elsewhere.
    scope.removeContentTypeParser('text/plain')
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: TWILIO_BODY_LIMIT },
      (_req, body, done) => done(null, formParams(typeof body === 'string' ? body : '')),
    )
    const limits = { config: publicRoute, bodyLimit: TWILIO_BODY_LIMIT }

    const exotel = async (req: FastifyRequest, params: unknown) => {
      const { hospitalId } = req.params as { hospitalId: string }
      const t = (req.query as { t?: unknown }).t
      return exotelIncoming({ db, hospitalId, token: typeof t === 'string' ? t : '', params })
    }
    scope.get('/api/webhooks/exotel/:hospitalId/incoming', limits, async (req) =>
      exotel(req, req.query),
    )
    scope.post('/api/webhooks/exotel/:hospitalId/incoming', limits, async (req) =>
      exotel(req, { ...(req.query as object), ...((req.body as object | null) ?? {}) }),
    )

    scope.post('/api/webhooks/twilio/:hospitalId/voice/incoming', limits, async (req, reply) => {
      const { hospitalId } = req.params as { hospitalId: string }
      const step = (req.query as { step?: unknown }).step
      const twiml = await limiter.guard(req, reply, hospitalId, () =>
        twilioIncoming({
          db,
          hospitalId,
          url: publicUrl(deps.baseURL, req, req.url),
          params:
            req.body && typeof req.body === 'object'
              ? (req.body as Record<string, string | string[]>)
              : {},
          signature: req.headers['x-twilio-signature'],
          step: typeof step === 'string' ? step : step === undefined ? undefined : '',
        }),
      )
      return reply.status(200).type('text/xml; charset=utf-8').send(twiml)
    })
  })

  app.post(
    '/api/calls/sandbox/incoming',
    { config: requirePermission('calls:make') },
    async (req, reply) => {
      const input = parse(sandboxIncomingInput, req.body)
      const card = await simulateIncoming({ db, ...actingMember(req), input, voice })
      return reply.status(201).send(card)
    },
  )

  app.get('/api/calls/incoming/:id', read, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    return getIncomingCard({ db, ...actingMember(req), id })
  })

  app.get('/api/calls/ring-group', read, async (req) => getRingGroup({ db, ...actingMember(req) }))

  app.put(
    '/api/calls/ring-group',
    { config: requirePermission('hospital:manage') },
    async (req) => {
      const { userIds } = parse(ringGroupInput, req.body)
      return setRingGroup({ db, ...actingMember(req), userIds })
    },
  )
}
