import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import type { MessageChannel } from '@/shared/messaging'
import type { MessageTemplate } from '../types'
import { templatesRootKey } from './keys'

/** GET /api/message-templates?channel= : the hospital's templates of one channel. */
export async function getMessageTemplates(channel: MessageChannel): Promise<MessageTemplate[]> {
  return (
    await api.get<{ templates: MessageTemplate[] }>(`/api/message-templates${toQuery({ channel })}`)
  ).templates
}

export function getMessageTemplatesQueryOptions(channel: MessageChannel) {
  return queryOptions({
    queryKey: [...templatesRootKey, channel],
    queryFn: () => getMessageTemplates(channel),
  })
}

export function useMessageTemplates(channel: MessageChannel, enabled = true) {
  return useQuery({ ...getMessageTemplatesQueryOptions(channel), enabled })
}
