import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import { afterSupportVisitChange } from '@/client/lib/support-visit'

/** DELETE /api/admin/support-session: the super admin leaves the hospital they are in. */
export function useExitSupportVisit() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => api.delete<null>('/api/admin/support-session'),
    onSuccess: () => afterSupportVisitChange(queryClient),
  })
}
