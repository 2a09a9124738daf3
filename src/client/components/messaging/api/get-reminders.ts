import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { Reminder } from '../types'
import { remindersKey } from './keys'

/** GET /api/reminders?status=pending: stored reminders and lead follow-ups that are due. */
export function getPendingReminders(): Promise<{ data: Reminder[]; total: number }> {
  return api.get<{ data: Reminder[]; total: number }>('/api/reminders?status=pending')
}

export function getPendingRemindersQueryOptions() {
  return queryOptions({ queryKey: remindersKey, queryFn: getPendingReminders })
}

export function usePendingReminders() {
  return useQuery(getPendingRemindersQueryOptions())
}
