import type { FastifyInstance } from 'fastify'
import { listOutboxQuery } from '../../../shared/schemas/outbox'
import { superAdmin } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { listOutbox } from './outbox.service'

export function outboxRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  /** The platform's emails: sandbox messages in full, sent ones as envelope and status. */
  app.get('/api/admin/outbox', { config: superAdmin }, async (req) => {
    const query = parse(listOutboxQuery, req.query, 'query')
    return listOutbox({ db, ...query })
  })
}
