import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { InvoiceDetail } from '@/shared/schemas/billing'
import { invoicesRootKey } from './get-invoices'

/** GET /api/invoices/:id: lines, taxes, payments, amount in words, the hospital's details. */
export function getInvoiceQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...invoicesRootKey, 'detail', id],
    queryFn: () => api.get<InvoiceDetail>(`/api/invoices/${encodeURIComponent(id)}`),
  })
}

export function useInvoice(id: string | null) {
  return useQuery({ ...getInvoiceQueryOptions(id ?? ''), enabled: Boolean(id) })
}
