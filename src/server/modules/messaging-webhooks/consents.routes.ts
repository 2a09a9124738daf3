import type { FastifyInstance } from 'fastify'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { consentQuery, recordConsentInput } from '../../../shared/schemas/messaging-events'
import { listConsents, recordStaffConsent } from './consents.service'

/** Staff consent records (DPDP): record an opt-in/opt-out, list a person's records. */
export function consentsRoutes(app: FastifyInstance, deps: { db: AppDb }): void {
  const { db } = deps
  app.post('/api/consents', { config: requirePermission('leads:write') }, async (req, reply) => {
    const who = actingMember(req)
    const values = parse(recordConsentInput, req.body)
    return reply.status(201).send(await recordStaffConsent({ db, ...who, values }))
  })
  app.get('/api/consents', { config: requirePermission('leads:read') }, async (req) => {
    const who = actingMember(req)
    const query = parse(consentQuery, req.query)
    return listConsents({ db, ...who, query })
  })
}
