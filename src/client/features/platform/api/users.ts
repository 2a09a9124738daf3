import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import type { PlatformUser, PlatformUserList, UpdateUserInput } from '@/shared/schemas/platform'
import { adminKey } from './admin-key'

export function usePlatformUsers(q: string) {
  return useQuery({
    queryKey: [...adminKey, 'users', q],
    queryFn: () => api.get<PlatformUserList>(`/api/admin/users${toQuery({ q, limit: 100 })}`),
    placeholderData: keepPreviousData,
  })
}

export function useUpdateUser(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: UpdateUserInput) =>
      api.patch<PlatformUser>(`/api/admin/users/${id}`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKey }),
  })
}
