import { useMutation } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { CreateDemoRequestInput, DemoRequestReceipt } from '@/shared/schemas/demo-requests'

export function createDemoRequest(input: CreateDemoRequestInput): Promise<DemoRequestReceipt> {
  return api.post<DemoRequestReceipt>('/api/demo-requests', input)
}

export function useCreateDemoRequest() {
  return useMutation({ mutationFn: createDemoRequest })
}
