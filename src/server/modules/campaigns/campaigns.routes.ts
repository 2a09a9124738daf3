import type { FastifyInstance } from 'fastify'
import { uuidParam } from '../../../shared/schemas/common'
import {
  campaignActionParam,
  campaignStatsInput,
  createCampaignInput,
  listCampaignsQuery,
  updateCampaignInput,
} from '../../../shared/schemas/campaigns'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { parse } from '../../http/parse'
import { recordCampaignStats } from './campaign-stats.service'
import {
  createCampaign,
  getCampaign,
  listCampaigns,
  moveCampaign,
  updateCampaign,
} from './campaigns.service'

/** /api/campaigns: campaigns:read lists and reads; campaigns:write creates, edits and moves. */
export function campaignsRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  const read = { config: requirePermission('campaigns:read') }
  const write = { config: requirePermission('campaigns:write') }

  app.get('/api/campaigns', read, async (req) => {
    const { status } = parse(listCampaignsQuery, req.query, 'query')
    return listCampaigns({ db, ...actingMember(req), status })
  })

  app.get('/api/campaigns/:id', read, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    return getCampaign({ db, ...actingMember(req), id })
  })

  app.post('/api/campaigns', write, async (req, reply) => {
    const input = parse(createCampaignInput, req.body)
    const created = await createCampaign({ db, ...actingMember(req), input })
    return reply.status(201).send(created)
  })

  app.put('/api/campaigns/:id', write, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    const input = parse(updateCampaignInput, req.body)
    return updateCampaign({ db, ...actingMember(req), id, input })
  })

  app.patch('/api/campaigns/:id/stats', write, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    const input = parse(campaignStatsInput, req.body)
    return recordCampaignStats({ db, ...actingMember(req), id, input })
  })

  app.post('/api/campaigns/:id/:action', write, async (req) => {
    const { id, action } = parse(campaignActionParam, req.params, 'id')
    return moveCampaign({ db, ...actingMember(req), id, action })
  })
}
