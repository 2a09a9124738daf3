import { formatMoney } from '@/shared/money'
import { invoiceKindLabels } from '../billing-labels'
import type { InvoicePreview } from './invoice-preview'

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={`flex justify-between gap-3 ${strong ? 'text-base font-semibold' : ''}`}>
      <dt>{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  )
}

/** The live totals, plainly labelled a preview: the server computes the invoice's amounts. */
export function TotalsPreview({ preview }: { preview: InvoicePreview }) {
  const taxed = preview.cgst + preview.sgst + preview.igst > 0
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
        <Row label="Subtotal" value={formatMoney(preview.subtotal)} />
        {preview.discountTotal ? (
          <Row label="Discount" value={`−${formatMoney(preview.discountTotal)}`} />
        ) : null}
        <Row label="Taxable value" value={formatMoney(preview.taxableTotal)} />
        {taxed && preview.igst === 0 ? (
          <>
            <Row label="CGST" value={formatMoney(preview.cgst)} />
            <Row label="SGST" value={formatMoney(preview.sgst)} />
          </>
        ) : null}
        {preview.igst ? <Row label="IGST" value={formatMoney(preview.igst)} /> : null}
        <Row label="Total" value={formatMoney(preview.amount)} strong />
      </dl>
      <p className="mt-2 text-xs text-slate-600">
        A preview: the server computes the invoice&apos;s final amounts and taxes when you create
        it.
      </p>
    </section>
  )
}
