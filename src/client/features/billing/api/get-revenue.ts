import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { RevenueMonth } from '@/shared/schemas/billing'
import { invoicesRootKey } from './get-invoices'

/** GET /api/invoices/revenue: paid per month, the last 12 months, oldest first. */
export function getRevenueQueryOptions() {
  return queryOptions({
    queryKey: [...invoicesRootKey, 'revenue'],
    queryFn: () => api.get<RevenueMonth[]>('/api/invoices/revenue'),
  })
}

export function useRevenue() {
  return useQuery(getRevenueQueryOptions())
}
