import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import { remindersKey, sandboxOutboxKey } from './keys'

/** POST /api/reminders/:id/send: the reminder goes out now (202). */
export function sendReminder(id: string): Promise<unknown> {
  return api.post<unknown>(`/api/reminders/${encodeURIComponent(id)}/send`, {})
}

export function useSendReminder() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: sendReminder,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: remindersKey }),
        queryClient.invalidateQueries({ queryKey: sandboxOutboxKey }),
      ]),
  })
}
