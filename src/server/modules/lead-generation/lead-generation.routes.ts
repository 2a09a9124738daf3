import type { FastifyInstance, FastifyRequest } from 'fastify'
import { uuidParam } from '../../../shared/schemas/common'
import {
  createLeadGenRequestInput,
  listLeadGenRequestsQuery,
  moveLeadGenRequestInput,
} from '../../../shared/schemas/lead-generation'
import { actingMember, requirePermission, superAdmin } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { AppError } from '../../http/app-error'
import type { Mailer } from '../../integrations/email/mailer'
import { parse } from '../../http/parse'
import { listAllLeadGenRequests, moveLeadGenRequest } from './lead-generation-admin.service'
import { createLeadGenRequest, listLeadGenRequests } from './lead-generation.service'

function actorId(req: FastifyRequest): string {
  const userId = req.actor?.userId
  if (!userId) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue')
  return userId
}

/** Lead-generation campaign requests (issue 28, docs/decisions/034): the hospital and the platform. */
export function leadGenerationRoutes(
  app: FastifyInstance,
  { db, mailer }: { db: AppDb; mailer: Mailer },
): void {
  const read = { config: requirePermission('hospital:manage') }
  const manage = { config: requirePermission('lead-generation:manage') }

  app.get('/api/marketing-campaigns', read, async (req) =>
    listLeadGenRequests({ db, ...actingMember(req) }),
  )

  app.post('/api/marketing-campaigns', manage, async (req, reply) => {
    const input = parse(createLeadGenRequestInput, req.body)
    const created = await createLeadGenRequest({ db, ...actingMember(req), input })
    return reply.code(201).send(created)
  })

  app.get('/api/admin/lead-generation-requests', { config: superAdmin }, async (req) => {
    const { status } = parse(listLeadGenRequestsQuery, req.query, 'query')
    return listAllLeadGenRequests({ db, status })
  })

  app.post(
    '/api/admin/lead-generation-requests/:id/status',
    { config: superAdmin },
    async (req) => {
      const { id } = parse(uuidParam, req.params, 'id')
      const { status, note } = parse(moveLeadGenRequestInput, req.body)
      return moveLeadGenRequest({ db, mailer, userId: actorId(req), id, status, note })
    },
  )
}
