import type { FastifyInstance, FastifyRequest } from 'fastify'
import { noBody, uuidParam } from '../../../shared/schemas/common'
import { grantSupportAccessInput } from '../../../shared/schemas/support-access'
import { actingMember, requirePermission, superAdmin } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { AppError } from '../../http/app-error'
import { parse } from '../../http/parse'
import {
  enterHospital,
  exitHospital,
  grantSupportAccess,
  revokeSupportAccess,
  supportAccessOverview,
} from './support-access.service'

function platformActor(req: FastifyRequest) {
  const actor = req.actor
  if (!actor) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue')
  return { userId: actor.userId, sessionId: actor.sessionId }
}

/**
 * Support access (issue 27, docs/decisions/032): the hospital's admins grant and revoke it and
 * see what support did; a super admin enters a hospital under a live grant and leaves it.
 */
export function supportAccessRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  const read = { config: requirePermission('hospital:manage') }
  const manage = { config: requirePermission('support-access:manage') }

  app.get('/api/support-access', read, async (req) =>
    supportAccessOverview({ db, ...actingMember(req) }),
  )

  app.post('/api/support-access', manage, async (req, reply) => {
    const { hours, reason, scope } = parse(grantSupportAccessInput, req.body)
    const grant = await grantSupportAccess({ db, ...actingMember(req), hours, reason, scope })
    return reply.status(201).send(grant)
  })

  app.post('/api/support-access/:id/revoke', manage, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    parse(noBody, req.body ?? {})
    return revokeSupportAccess({ db, ...actingMember(req), id })
  })

  app.post('/api/admin/hospitals/:id/support-session', { config: superAdmin }, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    parse(noBody, req.body ?? {})
    return enterHospital({ db, ...platformActor(req), hospitalId: id })
  })

  app.delete('/api/admin/support-session', { config: superAdmin }, async (req, reply) => {
    await exitHospital({ db, ...platformActor(req) })
    return reply.status(204).send()
  })
}
