import { Ban, CheckCircle2, Download, Eye } from 'lucide-react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { formatCalendarDate, formatDate } from '@/shared/dates'
import type { Invoice } from '@/shared/schemas/billing'
import { invoicePdfHref } from '../api/get-invoices'
import { billedName, canCancel, canTakePayment, invoiceKindLabels } from '../billing-labels'
import { InvoiceStatusBadge } from './invoice-status-badge'
import { Money } from './money'

export interface InvoiceActions {
  onView: (invoice: Invoice) => void
  /** Absent without billing:write. */
  onMarkPaid?: ((invoice: Invoice) => void) | undefined
  onCancel?: ((invoice: Invoice) => void) | undefined
  /** The hospital's zone, for the created and paid dates. */
  timeZone: string
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="text-sm font-medium tabular-nums">{children}</dd>
    </div>
  )
}

/**
 * One invoice (spec section 2): number, status, patient ('Unknown Patient' when none), amount,
 * due, created and paid dates, the services with their prices; the kind and, after a partial
 * payment, what is still owed.
 */
export function InvoiceCard({
  invoice,
  onView,
  onMarkPaid,
  onCancel,
  timeZone,
}: InvoiceActions & { invoice: Invoice }) {
  const partlyPaid = invoice.amountPaid > 0 && invoice.balance > 0
  const headingId = `invoice-${invoice.id}-number`
  return (
    <Card data-testid="invoice-card" aria-labelledby={headingId} role="article">
      <CardContent className="space-y-4 p-4 sm:p-5">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 id={headingId} className="font-mono text-base font-semibold">
              {invoice.invoiceNumber}
            </h2>
            <p className="text-sm text-slate-700">{billedName(invoice.patientName)}</p>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-xs font-medium text-slate-600">
              {invoiceKindLabels[invoice.kind]}
            </span>
            <InvoiceStatusBadge status={invoice.status} />
          </div>
        </div>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <Fact label="Amount">
            <Money paise={invoice.amount} className="text-base font-bold" />
          </Fact>
          <Fact label="Due date">{formatCalendarDate(invoice.dueDate)}</Fact>
          <Fact label="Created">{formatDate(invoice.createdAt, timeZone)}</Fact>
          {invoice.paidAt ? <Fact label="Paid">{formatDate(invoice.paidAt, timeZone)}</Fact> : null}
          {partlyPaid ? (
            <>
              <Fact label="Received">
                <Money paise={invoice.amountPaid} />
              </Fact>
              <Fact label="Balance">
                <Money paise={invoice.balance} className="text-red-700" />
              </Fact>
            </>
          ) : null}
        </dl>
        {invoice.services.length > 0 ? (
          <div>
            <h3 className="text-xs font-medium text-slate-600">Services</h3>
            <ul className="mt-1 divide-y divide-slate-100 rounded-md border border-slate-200">
              {invoice.services.map((s, i) => (
                <li key={i} className="flex justify-between gap-3 px-3 py-1.5 text-sm">
                  <span className="min-w-0">{s.name}</span>
                  <Money paise={s.price} className="shrink-0" />
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {invoice.status === 'cancelled' && invoice.cancelReason ? (
          <p className="text-sm text-slate-600">Cancelled: {invoice.cancelReason}</p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          {onMarkPaid && canTakePayment(invoice.status) ? (
            <Button size="sm" onClick={() => onMarkPaid(invoice)}>
              <CheckCircle2 aria-hidden="true" /> Mark Paid
              <span className="sr-only"> {invoice.invoiceNumber}</span>
            </Button>
          ) : null}
          <Button size="sm" variant="outline" onClick={() => onView(invoice)}>
            <Eye aria-hidden="true" /> View Details
            <span className="sr-only"> of {invoice.invoiceNumber}</span>
          </Button>
          <Button size="sm" variant="outline" asChild>
            <a href={invoicePdfHref(invoice.id)} download>
              <Download aria-hidden="true" /> Download PDF
              <span className="sr-only"> of {invoice.invoiceNumber}</span>
            </a>
          </Button>
          {onCancel && canCancel(invoice.status) ? (
            <Button size="sm" variant="ghost" onClick={() => onCancel(invoice)}>
              <Ban aria-hidden="true" /> Cancel
              <span className="sr-only"> {invoice.invoiceNumber}</span>
            </Button>
          ) : null}
        </div>
      </CardContent>
    </Card>
  )
}
