import { skipReasonLabels } from '../message-rules'
import { type BulkPreview, skipReasons } from '../types'

const count = new Intl.NumberFormat('en-IN')

/** Before a bulk send: how many receive it, how many are skipped and why. */
export function BulkPreviewSummary({ preview }: { preview: BulkPreview }) {
  const skipped = skipReasons.filter((r) => (preview.skipped[r] ?? 0) > 0)
  return (
    <div
      role="status"
      aria-label="Bulk send preview"
      className="space-y-1 rounded-md bg-slate-50 p-3 text-sm"
    >
      <p className="font-semibold">
        {count.format(preview.recipients)} of {count.format(preview.total)}{' '}
        {preview.total === 1 ? 'lead' : 'leads'} will receive it
      </p>
      {skipped.length === 0 ? (
        <p className="text-slate-700">Nobody is skipped.</p>
      ) : (
        <ul aria-label="Skipped" className="space-y-0.5 text-slate-700">
          {skipped.map((r) => (
            <li key={r}>
              Skipped, {skipReasonLabels[r].toLowerCase()}: {count.format(preview.skipped[r])}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
