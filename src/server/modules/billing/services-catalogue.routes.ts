import type { FastifyInstance } from 'fastify'
import { uuidParam } from '../../../shared/schemas/common'
import { createServiceInput, updateServiceInput } from '../../../shared/schemas/billing'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { createService, listServices, updateService } from './services-catalogue.service'

/**
 * /api/services: the catalogue that pre-fills invoice lines and names appointments. Reading
 * needs appointments:read (every role with billing:read has it too: permissions.ts); managing
 * it needs billing:write.
 */
export function servicesCatalogueRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  const read = { config: requirePermission('appointments:read') }
  const write = { config: requirePermission('billing:write') }

  app.get('/api/services', read, async (req) => listServices({ db, ...actingMember(req) }))

  app.post('/api/services', write, async (req, reply) => {
    const input = parse(createServiceInput, req.body)
    const created = await createService({ db, ...actingMember(req), input })
    return reply.status(201).send(created)
  })

  app.patch('/api/services/:id', write, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    const input = parse(updateServiceInput, req.body)
    return updateService({ db, ...actingMember(req), id, input })
  })
}
