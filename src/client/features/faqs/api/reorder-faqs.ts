import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { FaqList } from '@/shared/schemas/faqs'
import { faqsKey } from './get-faqs'

/** PUT /api/faqs/order: every FAQ's id in the new order. */
export function reorderFaqs(ids: string[]): Promise<FaqList> {
  return api.put<FaqList>('/api/faqs/order', { ids })
}

export function useReorderFaqs() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: reorderFaqs,
    onSettled: () => queryClient.invalidateQueries({ queryKey: faqsKey }),
  })
}
