import type { FastifyInstance } from 'fastify'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { leadTrends } from './leads.trends'

/** The dashboard's lead charts (issue 8). */
export function leadTrendsRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  app.get('/api/leads/trends', { config: requirePermission('leads:read') }, async (req) =>
    leadTrends({ db, ...actingMember(req) }),
  )
}
