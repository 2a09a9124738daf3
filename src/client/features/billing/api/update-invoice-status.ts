import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { InvoiceDetail, UpdateInvoiceStatusInput } from '@/shared/schemas/billing'
import { invoicesRootKey } from './get-invoices'

/** PATCH /api/invoices/:id/status: Mark Paid (a payment, maybe partial) or Cancel (a reason). */
export function updateInvoiceStatus({
  id,
  input,
}: {
  id: string
  input: UpdateInvoiceStatusInput
}): Promise<InvoiceDetail> {
  return api.patch<InvoiceDetail>(`/api/invoices/${encodeURIComponent(id)}/status`, input)
}

/** On success the list, the cards and the chart refresh (spec section 7). */
export function useUpdateInvoiceStatus() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateInvoiceStatus,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invoicesRootKey }),
  })
}
