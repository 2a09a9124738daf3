import { Dialog } from '@/client/components/ui/dialog'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { formatCalendarDate, formatDate } from '@/shared/dates'
import { placeOfSupplyLabel } from '@/shared/gst-summary'
import type { Invoice, InvoiceDetail } from '@/shared/schemas/billing'
import { useInvoice } from '../api/get-invoice'
import { billedName, invoiceKindLabels } from '../billing-labels'
import { InvoiceLinesTable, PaymentsList, TotalsList } from './invoice-detail-parts'
import { InvoiceStatusBadge } from './invoice-status-badge'
import { Money } from './money'

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5 sm:flex-row sm:gap-3">
      <dt className="shrink-0 text-sm text-slate-600 sm:w-32">{label}</dt>
      <dd className="min-w-0 text-sm font-medium">{children}</dd>
    </div>
  )
}

function Details({
  shown,
  detail,
  timeZone,
}: {
  shown: Invoice
  detail: InvoiceDetail | undefined
  timeZone: string
}) {
  const inv = detail ?? shown
  const place = detail
    ? placeOfSupplyLabel(detail.patientStateCode ?? detail.hospital.stateCode)
    : null
  return (
    <div className="space-y-5">
      <dl className="space-y-2">
        <Row label="Patient">{billedName(inv.patientName)}</Row>
        <Row label="Amount">
          <Money paise={inv.amount} />
        </Row>
        <Row label="Status">
          <InvoiceStatusBadge status={inv.status} />
        </Row>
        <Row label="Type">{invoiceKindLabels[inv.kind]}</Row>
        <Row label="Due date">{formatCalendarDate(inv.dueDate)}</Row>
        <Row label="Issued">{formatCalendarDate(inv.issueDate)}</Row>
        {inv.paidAt ? <Row label="Paid">{formatDate(inv.paidAt, timeZone)}</Row> : null}
        {inv.balance > 0 && inv.amountPaid > 0 ? (
          <Row label="Balance">
            <Money paise={inv.balance} />
          </Row>
        ) : null}
        {inv.cancelReason ? <Row label="Cancel reason">{inv.cancelReason}</Row> : null}
        {detail?.patientAddress ? (
          <Row label="Address">
            <span className="whitespace-pre-line">{detail.patientAddress}</span>
          </Row>
        ) : null}
        {place ? <Row label="Place of supply">{place}</Row> : null}
        {detail?.hospital.gstin ? <Row label="GSTIN">{detail.hospital.gstin}</Row> : null}
      </dl>
      {detail ? (
        <>
          <section aria-label="Services">
            <h3 className="mb-2 font-semibold">Services</h3>
            <InvoiceLinesTable lines={detail.lines} />
          </section>
          <TotalsList detail={detail} />
          <p className="rounded-md bg-slate-50 p-3 text-sm" data-testid="amount-in-words">
            <span className="text-slate-600">Amount in words: </span>
            <span className="font-medium">{detail.amountInWords}</span>
          </p>
          <PaymentsList payments={detail.payments} timeZone={timeZone} />
          {detail.notes ? (
            <section aria-label="Notes">
              <h3 className="mb-1 font-semibold">Notes</h3>
              <p className="text-sm whitespace-pre-line">{detail.notes}</p>
            </section>
          ) : null}
        </>
      ) : (
        <section aria-label="Services">
          <h3 className="mb-2 font-semibold">Services</h3>
          <ul className="space-y-1 text-sm">
            {shown.services.map((s, i) => (
              <li key={i} className="flex justify-between gap-3">
                <span>{s.name}</span>
                <Money paise={s.price} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  )
}

/**
 * View Details (spec: patient, amount, status, due date and services), with the lines, taxes,
 * payments and amount in words once the full invoice has loaded. The card's data shows at once.
 */
export function InvoiceDetailsDialog({
  invoice,
  timeZone,
  onClose,
}: {
  invoice: Invoice | null
  timeZone: string
  onClose: () => void
}) {
  const detail = useInvoice(invoice?.id ?? null)
  if (!invoice) return null
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Invoice ${invoice.invoiceNumber}`}
      className="max-w-3xl"
    >
      <Details shown={invoice} detail={detail.data} timeZone={timeZone} />
      {detail.isPending ? (
        <div
          className="mt-4 space-y-2"
          role="status"
          aria-busy="true"
          aria-label="Loading the invoice"
        >
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-6 w-2/3" />
        </div>
      ) : null}
      {detail.isError ? (
        <div className="mt-4">
          <InlineLoadError
            message="Failed to load the invoice's lines and payments."
            onRetry={() => void detail.refetch()}
          />
        </div>
      ) : null}
    </Dialog>
  )
}
