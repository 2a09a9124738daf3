import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { CreateFaqInput, Faq, UpdateFaqInput } from '@/shared/schemas/faqs'
import { faqsKey } from './get-faqs'

/** POST /api/faqs (no id) or PUT /api/faqs/:id. */
export function saveFaq(
  args: { id: null; input: CreateFaqInput } | { id: string; input: UpdateFaqInput },
): Promise<Faq> {
  return args.id === null
    ? api.post<Faq>('/api/faqs', args.input)
    : api.put<Faq>(`/api/faqs/${encodeURIComponent(args.id)}`, args.input)
}

export function useSaveFaq() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: saveFaq,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: faqsKey }),
  })
}
