import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import {
  type Campaign,
  campaign,
  campaignDetail,
  type CampaignDetail,
  campaignList,
  type CampaignList,
} from '../../src/shared/schemas/campaigns'
import { browserHeaders } from './login'

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH'

/** One campaigns API call as the browser makes it (JSON only when there is a body). */
export function campaignCall(
  app: FastifyInstance,
  cookie: string | undefined,
  method: Method,
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  if (method === 'GET') return app.inject({ method, url, headers: cookie ? { cookie } : {} })
  const headers = browserHeaders(cookie)
  if (payload === undefined) {
    delete headers['content-type']
    return app.inject({ method, url, headers })
  }
  return app.inject({ method, url, headers, payload: JSON.stringify(payload) })
}

let seq = 0
export function campaignPayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  seq++
  return {
    name: `Diwali Dental Offer ${seq}`,
    type: 'instagram',
    budget: 5_000_000,
    startDate: '2026-10-01',
    endDate: '2026-12-31',
    targetAudience: { age: '25-45', locations: ['Kothrud', 'Baner'] },
    ...overrides,
  }
}

export async function createCampaign(
  app: FastifyInstance,
  cookie: string,
  overrides: Record<string, unknown> = {},
): Promise<Campaign> {
  const res = await campaignCall(app, cookie, 'POST', '/api/campaigns', campaignPayload(overrides))
  if (res.statusCode !== 201) throw new Error(`create campaign: ${res.statusCode} ${res.body}`)
  return campaign.parse(res.json())
}

export async function listOf(
  app: FastifyInstance,
  cookie: string,
  query = '',
): Promise<CampaignList> {
  const res = await campaignCall(app, cookie, 'GET', `/api/campaigns${query}`)
  if (res.statusCode !== 200) throw new Error(`list campaigns: ${res.statusCode} ${res.body}`)
  return campaignList.parse(res.json())
}

export async function detailOf(
  app: FastifyInstance,
  cookie: string,
  id: string,
): Promise<CampaignDetail> {
  const res = await campaignCall(app, cookie, 'GET', `/api/campaigns/${id}`)
  if (res.statusCode !== 200) throw new Error(`campaign: ${res.statusCode} ${res.body}`)
  return campaignDetail.parse(res.json())
}
