import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import type { FaqCategory, FaqList } from '@/shared/schemas/faqs'

export const faqsKey = ['/api/faqs'] as const

export interface FaqFilter {
  q: string
  category: FaqCategory | 'all'
}

/** GET /api/faqs?q&category: the hospital's FAQs in order (search and filter in SQL). */
export function getFaqsQueryOptions(filter: FaqFilter) {
  return queryOptions({
    queryKey: [...faqsKey, filter],
    queryFn: () =>
      api.get<FaqList>(`/api/faqs${toQuery({ q: filter.q, category: filter.category })}`),
    placeholderData: keepPreviousData,
  })
}

export function useFaqs(filter: FaqFilter) {
  return useQuery(getFaqsQueryOptions(filter))
}
