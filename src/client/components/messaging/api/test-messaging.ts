import { useMutation } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { MessageChannel } from '@/shared/messaging'
import type { MessagingTestResult } from '../types'

/** POST /api/settings/messaging/test: a real send through the channel's provider. */
export function testMessaging(input: { channel: MessageChannel; to: string }) {
  return api.post<MessagingTestResult>('/api/settings/messaging/test', input)
}

export function useTestMessaging() {
  return useMutation({ mutationFn: testMessaging })
}
