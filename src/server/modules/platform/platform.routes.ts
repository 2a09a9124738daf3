import type { FastifyInstance, FastifyRequest } from 'fastify'
import { noBody, uuidParam } from '../../../shared/schemas/common'
import {
  ACTIVITIES_PAGE_SIZE,
  createHospitalInput,
  listActivitiesQuery,
  listHospitalsQuery,
  listTasksQuery,
  listUsersQuery,
  updateHospitalInput,
  updateUserInput,
  userIdParam,
} from '../../../shared/schemas/platform'
import { superAdmin } from '../../auth/access'
import type { AppDb } from '../../db/client'
import type { Mailer } from '../../integrations/email/mailer'
import { AppError } from '../../http/app-error'
import { parse } from '../../http/parse'
import { publicBase } from '../../http/public-url'
import { listPlatformActivities } from '../audit/platform-audit.service'
import { createHospital, getHospital, listHospitals, updateHospital } from './hospitals.service'
import { completeTask, listTasks } from './onboarding.service'
import { adminStats, platformStats } from './stats.service'
import { listUsers, updateUser } from './users.service'

const PAGE = 50

function actorId(req: FastifyRequest): string {
  const userId = req.actor?.userId
  if (!userId) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue')
  return userId
}

/** The Super Admin Dashboard's API (issue 27): super admins only, platform tables. */
export function platformRoutes(
  app: FastifyInstance,
  { db, mailer, baseURL }: { db: AppDb; mailer: Mailer; baseURL: string | undefined },
): void {
  app.get('/api/admin/platform-stats', { config: superAdmin }, async () => platformStats(db))

  // The super admin's /admin cards (spec section 2, "Admin").
  app.get('/api/admin/stats', { config: superAdmin }, async () => adminStats(db))

  app.get('/api/admin/hospitals', { config: superAdmin }, async (req) => {
    const { limit, offset, ...query } = parse(listHospitalsQuery, req.query, 'query')
    return listHospitals({ db, ...query, limit: limit ?? PAGE, offset: offset ?? 0 })
  })

  app.post('/api/admin/hospitals', { config: superAdmin }, async (req, reply) => {
    const input = parse(createHospitalInput, req.body)
    const created = await createHospital({
      db,
      mailer,
      publicUrl: publicBase(baseURL, req),
      userId: actorId(req),
      input,
    })
    return reply.code(201).send(created)
  })

  app.get('/api/admin/hospitals/:id', { config: superAdmin }, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    return getHospital({ db, id })
  })

  app.patch('/api/admin/hospitals/:id', { config: superAdmin }, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    const input = parse(updateHospitalInput, req.body)
    return updateHospital({ db, userId: actorId(req), id, input })
  })

  app.get('/api/admin/users', { config: superAdmin }, async (req) => {
    const { limit, offset, ...query } = parse(listUsersQuery, req.query, 'query')
    return listUsers({ db, ...query, limit: limit ?? PAGE, offset: offset ?? 0 })
  })

  app.patch('/api/admin/users/:id', { config: superAdmin }, async (req) => {
    const { id } = parse(userIdParam, req.params, 'id')
    const input = parse(updateUserInput, req.body)
    return updateUser({ db, actorUserId: actorId(req), id, input })
  })

  app.get('/api/admin/onboarding-tasks', { config: superAdmin }, async (req) => {
    const { limit, offset, ...query } = parse(listTasksQuery, req.query, 'query')
    return listTasks({ db, ...query, limit: limit ?? PAGE, offset: offset ?? 0 })
  })

  app.patch('/api/admin/onboarding-tasks/:id/complete', { config: superAdmin }, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    parse(noBody, req.body ?? {})
    return completeTask({ db, userId: actorId(req), id })
  })

  app.get('/api/admin/activities', { config: superAdmin }, async (req) => {
    const { limit, offset, ...query } = parse(listActivitiesQuery, req.query, 'query')
    return listPlatformActivities({
      db,
      ...query,
      limit: limit ?? ACTIVITIES_PAGE_SIZE,
      offset: offset ?? 0,
    })
  })
}
