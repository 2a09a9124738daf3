import type { FastifyInstance } from 'fastify'
import { listOutboxQuery } from '../../../shared/schemas/outbox'
import { superAdmin } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { listOutbox } from './outbox.service'

export function outboxRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  /**
   * The platform's emails: sandbox messages with every link's secret masked (never a live
   * invitation, activation or reset link), sent ones as envelope and status.
   */
  app.get('/api/admin/outbox', { config: superAdmin }, async (req) => {
    const query = parse(listOutboxQuery, req.query, 'query')
    return listOutbox({ db, ...query })
  })
}
