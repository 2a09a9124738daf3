import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import type { AdminStats, PlatformUser, PlatformUserList } from '@/shared/schemas/platform'

/** The super admin's /admin (spec section 2): its queries share this key. */
export const platformAdminKey = ['/api/admin', 'admin-page'] as const

export function useAdminStats() {
  return useQuery({
    queryKey: [...platformAdminKey, 'stats'],
    queryFn: () => api.get<AdminStats>('/api/admin/stats'),
  })
}

export function useAdminUsers(q: string) {
  return useQuery({
    queryKey: [...platformAdminKey, 'users', q],
    queryFn: () => api.get<PlatformUserList>(`/api/admin/users${toQuery({ q, limit: 100 })}`),
    placeholderData: keepPreviousData,
  })
}

/** Suspend or Activate (PATCH /api/admin/users/:id {status}); reloads the cards and the table. */
export function useSetUserStatus() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: 'active' | 'suspended' }) =>
      api.patch<PlatformUser>(`/api/admin/users/${id}`, { status }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: platformAdminKey }),
  })
}
