import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import { ACTIVITIES_PAGE_SIZE, type PlatformActivityList } from '@/shared/schemas/platform'
import { adminKey } from './admin-key'

export interface ActivityFilter {
  hospitalId: string
  action: string
  page: number
}

export function useActivities(filter: ActivityFilter) {
  return useQuery({
    queryKey: [...adminKey, 'activities', filter],
    queryFn: () =>
      api.get<PlatformActivityList>(
        `/api/admin/activities${toQuery({
          hospitalId: filter.hospitalId,
          action: filter.action,
          limit: ACTIVITIES_PAGE_SIZE,
          offset: filter.page * ACTIVITIES_PAGE_SIZE,
        })}`,
      ),
    placeholderData: keepPreviousData,
  })
}
