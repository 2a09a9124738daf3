import { queryOptions, useQuery } from '@tanstack/react-query'
import { useLiveFallback } from '@/client/components/messaging/use-message-events'
import { api } from '@/client/lib/api-client'
import { FEED_SIZE, REFRESH_MS } from '@/shared/live-monitoring'
import type {
  ActivitiesResponse,
  DailySummaryResponse,
  OnlineUsersResponse,
  OverviewResponse,
} from '@/shared/schemas/live-monitoring'

/*
 * The four reads of /live-monitoring (spec section 7). The URLs are exactly the ones the staff
 * HTML preloads (server/modules/seo/staff-head.ts), so the first fetch takes the preloaded answer.
 */
export const liveMonitoringKey = ['live-monitoring'] as const
export const overviewUrl = '/api/live-monitoring/overview'
export const onlineUsersUrl = '/api/live-monitoring/online-users'
export const activitiesUrl = `/api/live-monitoring/activities?limit=${FEED_SIZE}`
export const dailySummaryUrl = '/api/live-monitoring/daily-summary'

export const overviewKey = [...liveMonitoringKey, 'overview'] as const
export const onlineUsersKey = [...liveMonitoringKey, 'online-users'] as const
export const activitiesKey = [...liveMonitoringKey, 'activities'] as const
export const dailySummaryKey = [...liveMonitoringKey, 'daily-summary'] as const

/*
 * Live data: fetched again whenever the screen opens (staleTime 0), unlike the app's default of
 * never stale; while it shows, pushed events and the 30 s poll keep it current.
 */
export const overviewQueryOptions = () =>
  queryOptions({
    queryKey: overviewKey,
    queryFn: () => api.get<OverviewResponse>(overviewUrl),
    staleTime: 0,
  })
export const onlineUsersQueryOptions = () =>
  queryOptions({
    queryKey: onlineUsersKey,
    queryFn: () => api.get<OnlineUsersResponse>(onlineUsersUrl),
    staleTime: 0,
  })
export const activitiesQueryOptions = () =>
  queryOptions({
    queryKey: activitiesKey,
    queryFn: () => api.get<ActivitiesResponse>(activitiesUrl),
    staleTime: 0,
  })
export const dailySummaryQueryOptions = () =>
  queryOptions({
    queryKey: dailySummaryKey,
    queryFn: () => api.get<DailySummaryResponse>(dailySummaryUrl),
    staleTime: 0,
  })

/**
 * Spec section 7: every read is polled every 30 s while auto-refresh is on, and also while the
 * event stream is down (then polling is all there is).
 */
export function useLiveMonitoring(autoRefresh: boolean) {
  const streamDown = useLiveFallback()
  const refetchInterval = autoRefresh || streamDown ? REFRESH_MS : false
  return {
    overview: useQuery({ ...overviewQueryOptions(), refetchInterval }),
    onlineUsers: useQuery({ ...onlineUsersQueryOptions(), refetchInterval }),
    activities: useQuery({ ...activitiesQueryOptions(), refetchInterval }),
    dailySummary: useQuery({ ...dailySummaryQueryOptions(), refetchInterval }),
    streamDown,
  }
}
