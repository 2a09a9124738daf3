import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import { afterSupportVisitChange } from '@/client/lib/support-visit'
import type { SupportVisit } from '@/shared/schemas/support-access'

/** POST /api/admin/hospitals/:id/support-session: this session enters the hospital. */
export function useEnterHospital() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (hospitalId: string) =>
      api.post<SupportVisit>(`/api/admin/hospitals/${hospitalId}/support-session`),
    onSuccess: () => afterSupportVisitChange(queryClient),
  })
}
