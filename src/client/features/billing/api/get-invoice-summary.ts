import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { InvoiceSummary } from '@/shared/schemas/billing'
import { invoicesRootKey } from './get-invoices'

/** GET /api/invoices/summary: the four cards over all the hospital's invoices. */
export function getInvoiceSummaryQueryOptions() {
  return queryOptions({
    queryKey: [...invoicesRootKey, 'summary'],
    queryFn: () => api.get<InvoiceSummary>('/api/invoices/summary'),
  })
}

export function useInvoiceSummary() {
  return useQuery(getInvoiceSummaryQueryOptions())
}
