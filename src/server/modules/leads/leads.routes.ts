import type { FastifyInstance } from 'fastify'
import { noBody, uuidParam } from '../../../shared/schemas/common'
import {
  createCommunicationInput,
  createLeadInput,
  isMessageSend,
  listLeadsQuery,
  updateLeadInput,
} from '../../../shared/schemas/leads'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { AppError } from '../../http/app-error'
import { parse } from '../../http/parse'
import { sendCommunication } from '../messaging/communication-send'
import {
  createCommunication,
  listCommunications,
  markCommunicationsRead,
} from './communications.service'
import { leadImportRoutes } from './import.routes'
import { convertLead } from './leads.convert'
import { createLead } from './leads.create'
import { getLead, listLeads, updateLead } from './leads.service'
import { leadStats } from './leads.stats'
import { listStaff } from './staff.service'

/** Actions without a body (convert, read) take nothing: an empty object at most. */

export function leadsRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  const read = { config: requirePermission('leads:read') }
  const write = { config: requirePermission('leads:write') }

  app.get('/api/leads', read, async (req) => {
    const who = actingMember(req)
    const query = parse(listLeadsQuery, req.query, 'query')
    return listLeads({ db, ...who, ...query })
  })

  app.get('/api/leads/:id', read, async (req) => {
    const who = actingMember(req)
    const { id } = parse(uuidParam, req.params, 'id')
    return getLead({ db, ...who, id })
  })

  app.post('/api/leads', write, async (req, reply) => {
    const who = actingMember(req)
    const values = parse(createLeadInput, req.body)
    // A priority left out is scored when Settings → priority scoring is on (issue 27).
    const given = typeof req.body === 'object' && req.body !== null && 'priority' in req.body
    const result = await createLead({
      db,
      ...who,
      values: { ...values, priority: given ? values.priority : null },
    })
    return reply.status(result.duplicate ? 200 : 201).send(result)
  })

  app.patch('/api/leads/:id', write, async (req) => {
    const who = actingMember(req)
    const { id } = parse(uuidParam, req.params, 'id')
    const values = parse(updateLeadInput, req.body)
    return updateLead({ db, ...who, id, values })
  })

  app.post('/api/leads/:id/convert', write, async (req, reply) => {
    const who = actingMember(req)
    const { id } = parse(uuidParam, req.params, 'id')
    parse(noBody, req.body)
    return reply.status(201).send(await convertLead({ db, ...who, id }))
  })

  app.get('/api/leads/:id/communications', read, async (req) => {
    const who = actingMember(req)
    const { id } = parse(uuidParam, req.params, 'id')
    return listCommunications({ db, ...who, leadId: id })
  })

  app.post('/api/leads/:id/read', write, async (req, reply) => {
    const who = actingMember(req)
    const { id } = parse(uuidParam, req.params, 'id')
    parse(noBody, req.body)
    await markCommunicationsRead({ db, ...who, leadId: id })
    return reply.status(204).send()
  })

  app.post('/api/communications', write, async (req, reply) => {
    const who = actingMember(req)
    const values = parse(createCommunicationInput, req.body)
    // An outbound WhatsApp, SMS or email not marked 'logged' really leaves (issue 25).
    if (isMessageSend(values)) {
      return reply.status(201).send(await sendCommunication({ db, ...who, values }))
    }
    const { leadId, type, direction, content, status, metadata } = values
    if (!leadId) {
      const message = 'Notes and records are kept on a lead: give leadId'
      throw new AppError('VALIDATION', message, [{ path: 'leadId', message }])
    }
    return reply.status(201).send(
      await createCommunication({
        db,
        ...who,
        values: { leadId, type, direction, content, status, metadata },
      }),
    )
  })

  app.get('/api/stats', read, async (req) => leadStats({ db, ...actingMember(req) }))

  // Import CSV: text/csv upload, progress and the error report (import.routes.ts).
  leadImportRoutes(app, { db })

  app.get('/api/staff', read, async (req) => ({
    staff: await listStaff({ db, hospitalId: actingMember(req).hospitalId }),
  }))
}
