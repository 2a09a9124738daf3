import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { AddSuggestedResult } from '@/shared/schemas/faqs'
import { faqsKey } from './get-faqs'

/** POST /api/faqs/suggested ('Add All'): idempotent. */
export function addSuggestedFaqs(): Promise<AddSuggestedResult> {
  return api.post<AddSuggestedResult>('/api/faqs/suggested')
}

export function useAddSuggestedFaqs() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: addSuggestedFaqs,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: faqsKey }),
  })
}
