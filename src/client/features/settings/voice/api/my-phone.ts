import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'

/** GET|PUT /api/calls/my-phone (calls:make): the phone click-to-call rings first. */
export interface MyPhone {
  phone: string | null
  verified: boolean
  verifiedAt: string | null
}

export const myPhoneKey = ['/api/calls/my-phone'] as const

export function getMyPhone(): Promise<MyPhone> {
  return api.get<MyPhone>('/api/calls/my-phone')
}

export function getMyPhoneQueryOptions() {
  return queryOptions({ queryKey: myPhoneKey, queryFn: getMyPhone })
}

export function useMyPhone(enabled = true) {
  return useQuery({ ...getMyPhoneQueryOptions(), enabled })
}

/**
 * PUT /api/calls/my-phone: stores the number and places a test call to verify it; a refused
 * test call leaves it stored but unverified, so the query is refreshed either way.
 */
export function useSaveMyPhone() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (phone: string) => api.put<MyPhone>('/api/calls/my-phone', { phone }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: myPhoneKey }),
  })
}
