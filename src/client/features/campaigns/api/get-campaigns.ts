import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import type { CampaignStatus } from '@/shared/campaign-labels'
import type { CampaignDetail, CampaignList } from '@/shared/schemas/campaigns'

export type CampaignStatusFilter = CampaignStatus | 'all'

export const campaignsRootKey = ['api', 'campaigns'] as const

/** GET /api/campaigns?status=: the cards (filtered) and the four summary figures (all). */
export function getCampaignsQueryOptions(status: CampaignStatusFilter) {
  return queryOptions({
    queryKey: [...campaignsRootKey, 'list', status],
    queryFn: () => api.get<CampaignList>(`/api/campaigns${toQuery({ status })}`),
  })
}

export function useCampaigns(status: CampaignStatusFilter) {
  return useQuery(getCampaignsQueryOptions(status))
}

/** GET /api/campaigns/:id: the campaign with its per-day leads, conversions and spend. */
export function getCampaignQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...campaignsRootKey, 'detail', id],
    queryFn: () => api.get<CampaignDetail>(`/api/campaigns/${encodeURIComponent(id)}`),
  })
}

export function useCampaign(id: string | null) {
  return useQuery({ ...getCampaignQueryOptions(id ?? ''), enabled: id !== null })
}
