import type { FastifyInstance } from 'fastify'
import { NEXT_CURSOR_HEADER } from '../../../shared/schemas/common'
import {
  createDemoRequestInput,
  listDemoRequestsQuery,
} from '../../../shared/schemas/demo-requests'
import { publicRoute, superAdmin } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { AppError } from '../../http/app-error'
import { parse } from '../../http/parse'
import { createDemoRequest, listDemoRequests } from './demo-requests.service'

/** Demo requests a visitor may send from one IP address per hour. */
export const DEMO_REQUESTS_PER_IP_PER_HOUR = 5

export function demoRequestsRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  app.post(
    '/api/demo-requests',
    {
      config: {
        ...publicRoute,
        rateLimit: {
          max: DEMO_REQUESTS_PER_IP_PER_HOUR,
          timeWindow: '1 hour',
          keyGenerator: (req) => `demo:${req.ip}`,
          errorResponseBuilder: () =>
            new AppError(
              'RATE_LIMITED',
              'You have sent several demo requests already. Please try again in an hour, or call us.',
            ),
        },
      },
    },
    async (req, reply) => {
      const input = parse(createDemoRequestInput, req.body)
      return reply.status(201).send(await createDemoRequest({ db, values: input }))
    },
  )

  app.get('/api/admin/demo-requests', { config: superAdmin }, async (req, reply) => {
    const query = parse(listDemoRequestsQuery, req.query, 'query')
    const page = await listDemoRequests({ db, ...query })
    if (page.nextCursor) void reply.header(NEXT_CURSOR_HEADER, page.nextCursor)
    return page.items
  })
}
