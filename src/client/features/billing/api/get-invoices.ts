import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import type { InvoiceStatus } from '@/shared/billing'
import type { InvoiceList } from '@/shared/schemas/billing'

/** Every billing query key starts with this: invalidating it refreshes list, cards, chart. */
export const invoicesRootKey = ['/api/invoices'] as const

export type StatusFilter = InvoiceStatus | 'all'

export interface InvoiceFilter {
  status: StatusFilter
  search: string
}

/** One page of GET /api/invoices, newest first ('all' and '' are left out of the query). */
export function getInvoicesPage(
  filter: InvoiceFilter,
  cursor: string | null,
): Promise<InvoiceList> {
  return api.get<InvoiceList>(
    `/api/invoices${toQuery({ status: filter.status, search: filter.search, cursor })}`,
  )
}

export function getInvoicesQueryOptions(filter: InvoiceFilter) {
  return infiniteQueryOptions({
    queryKey: [...invoicesRootKey, 'list', filter],
    queryFn: ({ pageParam }) => getInvoicesPage(filter, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  })
}

export function useInvoices(filter: InvoiceFilter) {
  return useInfiniteQuery(getInvoicesQueryOptions(filter))
}

/** GET /api/invoices/export.csv for the filter on screen (a plain link: the browser downloads). */
export function exportCsvHref(filter: InvoiceFilter): string {
  return `/api/invoices/export.csv${toQuery({ status: filter.status, search: filter.search })}`
}

/** GET /api/invoices/:id/pdf (attachment). */
export function invoicePdfHref(id: string): string {
  return `/api/invoices/${encodeURIComponent(id)}/pdf`
}
