import type { FastifyInstance, FastifyRequest } from 'fastify'
import { can } from '../../../shared/permissions'
import { noBody } from '../../../shared/schemas/common'
import {
  adminListQuery,
  adminTicketParams,
  assignInput,
  commentInput,
  createTicketInput,
  statusInput,
  ticketParams,
} from '../../../shared/schemas/support-tickets'
import { actingMember, member, requirePermission, superAdmin } from '../../auth/access'
import type { AppDb } from '../../db/client'
import type { Mailer } from '../../integrations/email/mailer'
import { AppError } from '../../http/app-error'
import { parse } from '../../http/parse'
import { supportAttachmentRoutes } from './attachments.routes'
import {
  addPlatformComment,
  adminTicketDetail,
  assignTicket,
  changeTicketStatus,
  listAllTickets,
  ticketSummary,
} from './tickets-admin.service'
import {
  addHospitalComment,
  createTicket,
  listTickets,
  reopenTicket,
  ticketDetail,
  type TicketActor,
} from './tickets.service'

function ticketActor(db: AppDb, req: FastifyRequest): TicketActor {
  return { db, ...actingMember(req), seesAll: can(member(req).role, 'support:read_all') }
}

function platformUser(req: FastifyRequest): string {
  const actor = req.actor
  if (!actor) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue')
  return actor.userId
}

/** Support tickets (issue 28, docs/decisions/037): the hospital's side and the platform's. */
export function supportTicketsRoutes(
  app: FastifyInstance,
  { db, mailer }: { db: AppDb; mailer: Mailer },
): void {
  const submit = { config: requirePermission('support:submit') }

  app.get('/api/support-tickets', submit, async (req) => listTickets(ticketActor(db, req)))

  app.post('/api/support-tickets', submit, async (req, reply) => {
    const input = parse(createTicketInput, req.body)
    return reply.status(201).send(await createTicket({ ...ticketActor(db, req), input }))
  })

  app.get('/api/support-tickets/:id', submit, async (req) => {
    const { id } = parse(ticketParams, req.params, 'id')
    return ticketDetail({ ...ticketActor(db, req), id })
  })

  app.post('/api/support-tickets/:id/comments', submit, async (req, reply) => {
    const { id } = parse(ticketParams, req.params, 'id')
    const { body } = parse(commentInput, req.body)
    return reply.status(201).send(await addHospitalComment({ ...ticketActor(db, req), id, body }))
  })

  app.post('/api/support-tickets/:id/reopen', submit, async (req) => {
    const { id } = parse(ticketParams, req.params, 'id')
    parse(noBody, req.body ?? {})
    return reopenTicket({ ...ticketActor(db, req), id })
  })

  const platform = { config: superAdmin }

  app.get('/api/admin/support-tickets', platform, async (req) => {
    const { status } = parse(adminListQuery, req.query)
    return listAllTickets({ db, userId: platformUser(req), status })
  })

  app.get('/api/admin/support-tickets/summary', platform, async (req) =>
    ticketSummary({ db, userId: platformUser(req) }),
  )

  app.get('/api/admin/support-tickets/:hospitalId/:id', platform, async (req) => {
    const params = parse(adminTicketParams, req.params)
    return adminTicketDetail({ db, userId: platformUser(req), ...params })
  })

  app.post('/api/admin/support-tickets/:hospitalId/:id/assign', platform, async (req) => {
    const params = parse(adminTicketParams, req.params)
    const { assignedTo } = parse(assignInput, req.body)
    return assignTicket({ db, userId: platformUser(req), ...params, assignedTo })
  })

  app.post('/api/admin/support-tickets/:hospitalId/:id/status', platform, async (req) => {
    const params = parse(adminTicketParams, req.params)
    const { status, resolutionNotes } = parse(statusInput, req.body)
    return changeTicketStatus({
      db,
      mailer,
      userId: platformUser(req),
      ...params,
      status,
      resolutionNotes,
    })
  })

  app.post('/api/admin/support-tickets/:hospitalId/:id/comments', platform, async (req, reply) => {
    const params = parse(adminTicketParams, req.params)
    const { body } = parse(commentInput, req.body)
    return reply
      .status(201)
      .send(await addPlatformComment({ db, userId: platformUser(req), ...params, body }))
  })

  supportAttachmentRoutes(app, { db })
}
