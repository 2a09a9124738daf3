import { gstTotalRows } from '@/shared/gst-summary'
import { invoiceKindLabels } from '../billing-labels'
import type { InvoicePreview } from './invoice-preview'
import { Money } from '../components/money'

function Row({ label, value, strong }: { label: string; value: number; strong?: boolean }) {
  return (
    <div className={`flex justify-between gap-3 ${strong ? 'text-base font-semibold' : ''}`}>
      <dt>{label}</dt>
      <dd>
        <Money paise={value} />
      </dd>
    </div>
  )
}

/**
 * The live totals, plainly labelled a preview: the server computes the invoice's amounts. The rows
 * are the shared gstTotalRows, as on View Details and the PDF.
 */
export function TotalsPreview({ preview }: { preview: InvoicePreview }) {
  return (
    <section
      aria-labelledby="invoice-preview-title"
      className="rounded-md border border-dashed border-slate-300 bg-slate-50 p-3"
      data-testid="totals-preview"
    >
      <div className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
        <h3 id="invoice-preview-title" className="font-semibold">
          Preview
        </h3>
        <span className="text-sm font-medium" data-testid="preview-kind">
          {invoiceKindLabels[preview.kind]}
        </span>
      </div>
      <dl className="space-y-1 text-sm" aria-live="polite">
        {gstTotalRows(preview.gst, preview).map((r) => (
          <Row key={r.key} label={r.label} value={r.value} />
        ))}
        <Row label="Total" value={preview.amount} strong />
      </dl>
      <p className="mt-2 text-xs text-slate-600">
        A preview: the server computes the invoice&apos;s final amounts and taxes when you create
        it.
      </p>
    </section>
  )
}
