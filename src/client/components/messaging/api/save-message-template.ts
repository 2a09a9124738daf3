import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { MessageTemplate, TemplateInput } from '../types'
import { templatesRootKey } from './keys'

/** POST /api/message-templates (new) or PATCH /api/message-templates/:id (admin). */
export function saveMessageTemplate({
  id,
  input,
}: {
  id: string | null
  input: TemplateInput
}): Promise<MessageTemplate> {
  if (id === null) return api.post<MessageTemplate>('/api/message-templates', input)
  // A template's channel is fixed once made.
  const changes: Partial<TemplateInput> = { ...input }
  delete changes.channel
  return api.patch<MessageTemplate>(`/api/message-templates/${encodeURIComponent(id)}`, changes)
}

export function useSaveMessageTemplate() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveMessageTemplate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templatesRootKey }),
  })
}
