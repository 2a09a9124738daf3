import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { CreateInvoiceInput, InvoiceDetail } from '@/shared/schemas/billing'
import { invoicesRootKey } from './get-invoices'

/** POST /api/invoices: the server computes every amount and allocates the number. */
export function createInvoice(input: CreateInvoiceInput): Promise<InvoiceDetail> {
  return api.post<InvoiceDetail>('/api/invoices', input)
}

export function useCreateInvoice() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createInvoice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invoicesRootKey }),
  })
}
