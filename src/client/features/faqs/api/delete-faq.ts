import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import { faqsKey } from './get-faqs'

/** DELETE /api/faqs/:id */
export function deleteFaq(id: string): Promise<null> {
  return api.delete<null>(`/api/faqs/${encodeURIComponent(id)}`)
}

export function useDeleteFaq() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteFaq,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: faqsKey }),
  })
}
