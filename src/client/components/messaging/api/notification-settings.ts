import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { NotificationSettings } from '../types'

const key = ['/api/settings/notifications'] as const

/** GET /api/settings/notifications */
export function getNotificationSettings(): Promise<NotificationSettings> {
  return api.get<NotificationSettings>('/api/settings/notifications')
}

export function getNotificationSettingsQueryOptions() {
  return queryOptions({ queryKey: key, queryFn: getNotificationSettings })
}

export function useNotificationSettings() {
  return useQuery(getNotificationSettingsQueryOptions())
}

/** PUT /api/settings/notifications (admin) */
export function useSaveNotificationSettings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: NotificationSettings) =>
      api.put<NotificationSettings>('/api/settings/notifications', input),
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
  })
}
