import type { InvoiceKind, InvoiceStatus } from '@/shared/billing'

/** Spec section 4: the statuses' labels and badge colours. */
export const invoiceStatusLabels: Record<InvoiceStatus, string> = {
  pending: 'Pending',
  paid: 'Paid',
  overdue: 'Overdue',
  cancelled: 'Cancelled',
}

export const invoiceStatusVariants = {
  pending: 'yellow',
  paid: 'green',
  overdue: 'destructive',
  cancelled: 'secondary',
} as const satisfies Record<InvoiceStatus, string>

export const invoiceKindLabels: Record<InvoiceKind, string> = {
  tax_invoice: 'Tax Invoice',
  bill_of_supply: 'Bill of Supply',
}

/** Mark Paid is offered on invoices that still owe money (the server refuses the others). */
export function canTakePayment(status: InvoiceStatus): boolean {
  return status === 'pending' || status === 'overdue'
}

/** Cancel is offered while an invoice is open; paid and cancelled are final. */
export function canCancel(status: InvoiceStatus): boolean {
  return status === 'pending' || status === 'overdue'
}

/** The name shown for an invoice (spec: 'Unknown Patient' when not found). */
export function billedName(patientName: string | null | undefined): string {
  const name = patientName?.trim()
  return name ? name : 'Unknown Patient'
}

/** The PDF's file name the server gives: the invoice number with '/' replaced by '-'. */
export function pdfFileName(invoiceNumber: string): string {
  return `${invoiceNumber.replace(/\//g, '-')}.pdf`
}
