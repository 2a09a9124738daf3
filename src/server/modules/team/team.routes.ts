import type { FastifyInstance, FastifyRequest } from 'fastify'
import { uuidParam } from '../../../shared/schemas/common'
import {
  acceptInvitationInput,
  invitationLookupInput,
  inviteMemberInput,
  memberParam,
  updateMemberInput,
} from '../../../shared/schemas/team'
import { actingMember, publicRoute, requirePermission } from '../../auth/access'
import type { Auth } from '../../auth/auth'
import type { CachedActor } from '../../auth/access'
import type { SessionCache } from '../../auth/session-cache'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { publicBase } from '../../http/public-url'
import type { Mailer } from '../../integrations/email/mailer'
import { recordSecurityEvent } from '../security/security-log'
import { acceptInvitation, lookupInvitation } from './invitation-accept.service'
import { createInvitation, resendInvitation, revokeInvitation } from './invitations.service'
import { listTeam, removeMember, updateMember } from './team.service'

export interface TeamRouteDeps {
  db: AppDb
  auth: Auth
  mailer: Mailer
  /** This instance's session cache: a suspended or removed member's entries go at once. */
  sessions: SessionCache<CachedActor>
  baseURL: string | undefined
}

const publicUrlOf = (req: FastifyRequest, baseURL: string | undefined) => publicBase(baseURL, req)

/**
 * Admin → the hospital admin's team (issue 27): hospital:manage only (other roles 403), always
 * the caller's own hospital (another hospital's ids are 404). Plus the two public routes of
 * the invitation page; the token travels in the body, never in a logged URL.
 */
export function teamRoutes(app: FastifyInstance, deps: TeamRouteDeps): void {
  const { db } = deps
  const read = { config: requirePermission('hospital:manage') }
  const manage = { config: requirePermission('team:manage') }

  app.get('/api/team', read, async (req) => listTeam({ db, ...actingMember(req) }))

  app.post('/api/team/invitations', manage, async (req, reply) => {
    const values = parse(inviteMemberInput, req.body)
    const acting = actingMember(req)
    const { invitation, emailStatus } = await createInvitation({
      db,
      mailer: deps.mailer,
      publicUrl: publicUrlOf(req, deps.baseURL),
      hospitalId: acting.hospitalId,
      invitedByUserId: acting.userId,
      impersonatorUserId: acting.impersonatorUserId,
      ...values,
    })
    return reply.status(201).send({ invitation, emailStatus })
  })

  app.post('/api/team/invitations/:id/resend', manage, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    return resendInvitation({
      db,
      ...actingMember(req),
      id,
      mailer: deps.mailer,
      publicUrl: publicUrlOf(req, deps.baseURL),
    })
  })

  app.delete('/api/team/invitations/:id', manage, async (req, reply) => {
    const { id } = parse(uuidParam, req.params, 'id')
    await revokeInvitation({ db, ...actingMember(req), id })
    return reply.status(204).send()
  })

  app.patch('/api/team/members/:id', manage, async (req) => {
    const { id } = parse(memberParam, req.params, 'id')
    const values = parse(updateMemberInput, req.body)
    const acting = actingMember(req)
    const { member, changes } = await updateMember({ db, ...acting, id, values })
    if (changes.role || changes.suspended) deps.sessions.dropUser(id)
    const events = [
      ...(changes.role ? (['user.role_changed'] as const) : []),
      ...(changes.suspended ? (['user.suspended'] as const) : []),
      ...(changes.activated ? (['user.unsuspended'] as const) : []),
    ]
    for (const event of events)
      await recordSecurityEvent(db, {
        event,
        userId: id,
        email: member.email,
        hospitalId: acting.hospitalId,
        impersonatorUserId: acting.impersonatorUserId,
        ip: req.ip,
        details: { by: acting.userId, ...(changes.role ? { role: changes.role } : {}) },
      })
    return member
  })

  app.delete('/api/team/members/:id', manage, async (req, reply) => {
    const { id } = parse(memberParam, req.params, 'id')
    await removeMember({ db, ...actingMember(req), id })
    deps.sessions.dropUser(id)
    return reply.status(204).send()
  })

  const open = { config: { ...publicRoute, rateLimit: { max: 30, timeWindow: '1 minute' } } }

  app.post('/api/public/invitations/lookup', open, async (req) => {
    const { token } = parse(invitationLookupInput, req.body)
    return lookupInvitation({ db, token })
  })

  app.post('/api/public/invitations/accept', open, async (req, reply) => {
    const { token, password } = parse(acceptInvitationInput, req.body)
    const { email } = await acceptInvitation({ db, auth: deps.auth, token, password })
    return reply.status(201).send({ email })
  })
}
