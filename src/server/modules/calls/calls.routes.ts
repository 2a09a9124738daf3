import type { FastifyInstance } from 'fastify'
import { uuidParam } from '../../../shared/schemas/common'
import {
  dispositionInput,
  listCallsQuery,
  myPhoneInput,
  startCallInput,
} from '../../../shared/schemas/calls'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { publicBase } from '../../http/public-url'
import { callsReportQuery } from '../../../shared/schemas/calls-report'
import { registerCallJobs } from './call-jobs'
import { callsReport, callsReportCsv } from './calls-report.service'
import { getCall, listCalls } from './calls-read.service'
import { startCall } from './calls.service'
import { setDisposition } from './disposition.service'
import { registerRecordingJobs } from './recording-jobs'
import { sendCallRecording } from './recording-route'
import { getMyPhone, setMyPhone } from './staff-phone.service'
import { defaultVoiceOptions, type VoiceOptions } from './voice-registry'

/**
 * Voice calls (issue 41; schemas and the list of routes: src/shared/schemas/calls.ts). Placing
 * a call, choosing its disposition and setting one's own phone need calls:make (admin, doctor,
 * nurse, receptionist); reading calls needs leads:read (every hospital role). Refusals:
 * 400 bad input, no verified staff phone, a contact without a callable number, or a number the
 * provider refuses; 403 a viewer; 404 another hospital's id; 409 a second live call, a lead
 * who opted out of calls (OPTED_OUT) or outside calling hours; 502 (UPSTREAM) the provider
 * refused (credentials, balance) or is down: the call is then kept as failed with that reason.
 */
export function callsRoutes(
  app: FastifyInstance,
  {
    db,
    voice = defaultVoiceOptions,
    baseURL,
  }: { db: AppDb; voice?: VoiceOptions | undefined; baseURL?: string | undefined },
): void {
  registerCallJobs()
  registerRecordingJobs()
  const make = { config: requirePermission('calls:make') }
  const read = { config: requirePermission('leads:read') }

  app.post('/api/calls', make, async (req, reply) => {
    const input = parse(startCallInput, req.body)
    const call = await startCall({
      db,
      ...actingMember(req),
      input,
      voice,
      publicBase: publicBase(baseURL, req),
    })
    return reply.status(201).send(call)
  })

  app.get('/api/calls', read, async (req) => {
    const query = parse(listCallsQuery, req.query)
    return { calls: await listCalls({ db, ...actingMember(req), query }) }
  })

  app.get('/api/calls/my-phone', make, async (req) => getMyPhone({ db, ...actingMember(req) }))

  app.put('/api/calls/my-phone', make, async (req) => {
    const { phone } = parse(myPhoneInput, req.body)
    return setMyPhone({ db, ...actingMember(req), phone, voice })
  })

  // Registered before /api/calls/:id (a static segment wins in Fastify's router anyway).
  const report = { config: requirePermission('live-monitoring:read_all') }
  app.get('/api/calls/report', report, async (req) => {
    const query = parse(callsReportQuery, req.query)
    return callsReport({ db, ...actingMember(req), query })
  })

  app.get('/api/calls/report.csv', report, async (req, reply) => {
    const query = parse(callsReportQuery, req.query)
    const { filename, csv } = await callsReportCsv({ db, ...actingMember(req), query })
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .send(csv)
  })

  app.get('/api/calls/:id', read, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    return getCall({ db, ...actingMember(req), id })
  })

  app.get(
    '/api/calls/:id/recording',
    { config: requirePermission('calls:recordings') },
    async (req, reply) => {
      const { id } = parse(uuidParam, req.params, 'id')
      return sendCallRecording(reply, { db, ...actingMember(req), id })
    },
  )

  app.post('/api/calls/:id/disposition', make, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    const input = parse(dispositionInput, req.body)
    return setDisposition({ db, ...actingMember(req), id, input })
  })
}
