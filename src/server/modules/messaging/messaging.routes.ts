import type { FastifyInstance } from 'fastify'
import { uuidParam } from '../../../shared/schemas/common'
import { bulkMessageInput, contactStateQuery } from '../../../shared/schemas/messaging-send'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { getBatch } from './batches.service'
import { previewBulk, sendBulk } from './bulk.service'
import { contactState, listPatientCommunications } from './contact-state'

/**
 * Sending (issue 25): bulk send and its preview, a batch's progress, a contact's state for the
 * message dialog, a patient's communications. Single sends are POST /api/communications
 * (leads.routes.ts → communication-send.ts).
 */
export function messagingRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  const readLeads = { config: requirePermission('leads:read') }
  const send = { config: requirePermission('leads:write') }
  const readPatients = { config: requirePermission('patients:read') }

  app.post('/api/leads/bulk/message/preview', send, async (req) => {
    const values = parse(bulkMessageInput, req.body)
    return previewBulk({ db, ...actingMember(req), values })
  })

  app.post('/api/leads/bulk/message', send, async (req, reply) => {
    const values = parse(bulkMessageInput, req.body)
    return reply.status(202).send(await sendBulk({ db, ...actingMember(req), values }))
  })

  app.get('/api/message-batches/:id', readLeads, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    return getBatch({ db, ...actingMember(req), id })
  })

  app.get('/api/messaging/contact-state', readLeads, async (req) => {
    const query = parse(contactStateQuery, req.query, 'query')
    return contactState({ db, ...actingMember(req), ...query })
  })

  app.get('/api/patients/:id/communications', readPatients, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    return listPatientCommunications({ db, ...actingMember(req), patientId: id })
  })
}
