import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { CampaignAction } from '@/shared/campaign-labels'
import type {
  Campaign,
  CampaignStatsInput,
  CreateCampaignInput,
  UpdateCampaignInput,
} from '@/shared/schemas/campaigns'
import { campaignsRootKey } from './get-campaigns'

/** POST /api/campaigns (id null) or PUT /api/campaigns/:id. */
export function saveCampaign({
  id,
  input,
}: {
  id: string | null
  input: CreateCampaignInput | UpdateCampaignInput
}): Promise<Campaign> {
  return id === null
    ? api.post<Campaign>('/api/campaigns', input)
    : api.put<Campaign>(`/api/campaigns/${encodeURIComponent(id)}`, input)
}

/** POST /api/campaigns/:id/pause|resume|complete|activate (spec §4). */
export function moveCampaign({ id, action }: { id: string; action: CampaignAction }) {
  return api.post<Campaign>(`/api/campaigns/${encodeURIComponent(id)}/${action}`)
}

/** PATCH /api/campaigns/:id/stats: a day's spend (spec §7). */
export function recordCampaignStats({ id, input }: { id: string; input: CampaignStatsInput }) {
  return api.patch<Campaign>(`/api/campaigns/${encodeURIComponent(id)}/stats`, input)
}

/** Each refreshes the list, the summary and any open details (spec §7: the list refreshes). */
function useCampaignMutation<A>(fn: (args: A) => Promise<Campaign>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignsRootKey }),
  })
}

export const useSaveCampaign = () => useCampaignMutation(saveCampaign)
export const useMoveCampaign = () => useCampaignMutation(moveCampaign)
export const useRecordCampaignStats = () => useCampaignMutation(recordCampaignStats)
