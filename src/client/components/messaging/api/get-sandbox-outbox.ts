import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { SandboxMessage } from '../types'
import { useLiveFallback, useMessageEvents } from '../use-message-events'
import { sandboxOutboxKey } from './keys'

/** GET /api/sandbox-outbox: messages the sandbox "delivered", newest first. */
export async function getSandboxOutbox(): Promise<SandboxMessage[]> {
  return (await api.get<{ messages: SandboxMessage[] }>('/api/sandbox-outbox')).messages
}

export function getSandboxOutboxQueryOptions() {
  return queryOptions({ queryKey: sandboxOutboxKey, queryFn: getSandboxOutbox })
}

export function useSandboxOutbox() {
  useMessageEvents()
  const polling = useLiveFallback()
  return useQuery({ ...getSandboxOutboxQueryOptions(), refetchInterval: polling ? 10_000 : false })
}
