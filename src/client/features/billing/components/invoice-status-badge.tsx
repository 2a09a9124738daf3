import { Badge } from '@/client/components/ui/badge'
import type { InvoiceStatus } from '@/shared/billing'
import { invoiceStatusLabels, invoiceStatusVariants } from '../billing-labels'

/** Pending yellow, paid green, overdue red, cancelled grey (spec section 4). */
export function InvoiceStatusBadge({ status }: { status: InvoiceStatus }) {
  return (
    <Badge variant={invoiceStatusVariants[status]} data-status={status}>
      {invoiceStatusLabels[status]}
    </Badge>
  )
}
