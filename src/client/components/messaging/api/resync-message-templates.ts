import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import { templatesRootKey } from './keys'

/** POST /api/message-templates/resync: WhatsApp approval statuses fetched again from Meta. */
export function resyncMessageTemplates(): Promise<{
  checked: number
  updated: number
  notes: string[]
}> {
  return api.post<{ checked: number; updated: number; notes: string[] }>(
    '/api/message-templates/resync',
  )
}

export function useResyncMessageTemplates() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: resyncMessageTemplates,
    onSettled: () => queryClient.invalidateQueries({ queryKey: templatesRootKey }),
  })
}
