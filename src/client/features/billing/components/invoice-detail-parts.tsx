import { paymentMethodLabels } from '@/shared/billing'
import { formatDate, formatTime } from '@/shared/dates'
import { gstTotalRows, invoiceGstSummary } from '@/shared/gst-summary'
import type { InvoiceDetail, InvoiceLine, Payment } from '@/shared/schemas/billing'
import { Money } from './money'

const cell = 'px-2 py-1.5 text-right whitespace-nowrap'

/** The lines as a table that scrolls inside its own box on a phone, never the page. */
export function InvoiceLinesTable({ lines }: { lines: readonly InvoiceLine[] }) {
  return (
    <div
      role="region"
      aria-label="Invoice lines"
      tabIndex={0}
      className="overflow-x-auto rounded-md border border-slate-200"
    >
      <table className="w-full border-collapse text-sm tabular-nums">
        <thead className="bg-slate-50 text-left">
          <tr>
            <th scope="col" className="px-2 py-1.5 font-medium">
              Service
            </th>
            <th scope="col" className={`${cell} font-medium`}>
              SAC/HSN
            </th>
            <th scope="col" className={`${cell} font-medium`}>
              Qty
            </th>
            <th scope="col" className={`${cell} font-medium`}>
              Unit price
            </th>
            <th scope="col" className={`${cell} font-medium`}>
              Discount
            </th>
            <th scope="col" className={`${cell} font-medium`}>
              GST
            </th>
            <th scope="col" className={`${cell} font-medium`}>
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr key={l.lineNo} className="border-t border-slate-100">
              <th scope="row" className="min-w-32 px-2 py-1.5 text-left font-normal">
                {l.name}
              </th>
              <td className={cell}>{l.code ?? '—'}</td>
              <td className={cell}>{l.quantity}</td>
              <td className={cell}>
                <Money paise={l.unitPrice} />
              </td>
              <td className={cell}>{l.discount ? <Money paise={l.discount} /> : '—'}</td>
              <td className={cell}>{l.gstRate ? `${l.gstRate}%` : 'Exempt'}</td>
              <td className={cell}>
                <Money paise={l.total} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function Line({ label, value, strong }: { label: string; value: number; strong?: boolean }) {
  return (
    <div className={`flex justify-between gap-3 ${strong ? 'font-semibold' : ''}`}>
      <dt>{label}</dt>
      <dd>
        <Money paise={value} />
      </dd>
    </div>
  )
}

/**
 * The shared gstTotalRows (as on the New Invoice preview and the PDF): subtotal, discount, exempt
 * and taxable value, CGST + SGST or IGST with their rates; then total, paid and balance.
 */
export function TotalsList({ detail }: { detail: InvoiceDetail }) {
  const rows = gstTotalRows(invoiceGstSummary(detail), detail)
  return (
    <dl className="ml-auto max-w-sm space-y-1 text-sm" aria-label="Totals">
      {rows.map((r) => (
        <Line key={r.key} label={r.label} value={r.value} />
      ))}
      <Line label="Total" value={detail.amount} strong />
      {detail.amountPaid ? <Line label="Paid" value={detail.amountPaid} /> : null}
      {detail.status !== 'cancelled' && detail.balance ? (
        <Line label="Balance" value={detail.balance} strong />
      ) : null}
    </dl>
  )
}

/** The payments taken, newest last: amount, method, reference and when. */
export function PaymentsList({
  payments,
  timeZone,
}: {
  payments: readonly Payment[]
  timeZone: string
}) {
  return (
    <section aria-label="Payments">
      <h3 className="mb-1 font-semibold">Payments</h3>
      {payments.length === 0 ? (
        <p className="text-sm text-slate-600">No payments yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-md border border-slate-200 text-sm">
          {payments.map((p) => (
            <li key={p.id} className="flex flex-wrap justify-between gap-x-3 gap-y-0.5 px-3 py-2">
              <Money paise={p.amount} className="font-medium" />
              <span>
                {paymentMethodLabels[p.method]}
                {p.reference ? ` · ${p.reference}` : ''}
              </span>
              <span className="text-slate-600">
                {formatDate(p.paidAt, timeZone)}, {formatTime(p.paidAt, timeZone)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
