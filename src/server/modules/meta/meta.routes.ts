import type { FastifyInstance } from 'fastify'
import { noBody } from '../../../shared/schemas/common'
import { saveMetaConnectionInput } from '../../../shared/schemas/meta'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import type { Mailer } from '../../integrations/email/mailer'
import type { GraphConfig } from '../../integrations/meta/graph'
import { getConnectionView, saveConnection } from './connection.service'
import { syncLeads, testConnection } from './sync.service'

export const defaultGraphConfig: GraphConfig = {
  baseUrl: 'https://graph.facebook.com',
  version: 'v21.0',
}

export interface MetaRouteDeps {
  db: AppDb
  /** META_GRAPH_URL and META_GRAPH_VERSION (env.ts); Meta's own by default. */
  graph?: GraphConfig | undefined
  /** Emails a hospital's admins when another hospital takes their page over. */
  mailer?: Mailer | undefined
}

/**
 * Meta lead ads on the server (docs/decisions/016): the connection in Settings → Integrations,
 * Test Connection and Sync Leads. The webhook Meta calls is in webhook.routes.ts.
 */
export function metaRoutes(app: FastifyInstance, deps: MetaRouteDeps): void {
  const { db } = deps
  const graph = deps.graph ?? defaultGraphConfig
  const mailer = deps.mailer
  const read = { config: requirePermission('hospital:manage') }
  const manage = { config: requirePermission('integrations:manage') }

  app.get('/api/integrations/meta', read, async (req) =>
    getConnectionView({ db, ...actingMember(req) }),
  )

  app.put('/api/integrations/meta', manage, async (req) => {
    const values = parse(saveMetaConnectionInput, req.body)
    return saveConnection({ db, ...actingMember(req), values })
  })

  app.post('/api/integrations/meta/test', manage, async (req) => {
    parse(noBody, req.body)
    return testConnection({ db, graph, mailer }, actingMember(req))
  })

  app.post('/api/leads/sync', { config: requirePermission('leads:write') }, async (req) => {
    parse(noBody, req.body)
    return syncLeads({ db, graph }, actingMember(req))
  })
}
