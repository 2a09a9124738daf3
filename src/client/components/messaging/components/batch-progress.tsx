import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { useMessageBatch } from '../api/get-message-batch'
import { batchPercent, batchSummary, skippedTotal } from '../message-rules'

const count = new Intl.NumberFormat('en-IN')

/** A bulk send under way: a bar filling as the provider takes messages, then the summary. */
export function BatchProgress({ batchId }: { batchId: string }) {
  const batch = useMessageBatch(batchId)
  if (batch.isError)
    return (
      <InlineLoadError
        message="Failed to load the send's progress."
        onRetry={() => void batch.refetch()}
      />
    )
  const data = batch.data
  const percent = data ? batchPercent(data) : 0
  const summary = data ? batchSummary(data) : null
  return (
    <div className="space-y-3">
      <div
        role="progressbar"
        aria-label="Bulk send progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-sm text-slate-700" aria-live="polite">
        {data ? (data.done ? 'Finished.' : `${percent}% handed to the provider…`) : 'Starting…'}
      </p>
      {data && summary ? (
        <div role="status" aria-label="Bulk send summary" className="space-y-2 text-sm">
          <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            {(
              [
                ['Queued', data.queued],
                ['Sent', summary.sent],
                ['Delivered', summary.delivered],
                ['Failed', summary.failed],
              ] as const
            ).map(([label, n]) => (
              <div key={label} className="rounded-md border border-slate-200 p-2">
                <dt className="text-xs text-slate-600">{label}</dt>
                <dd className="text-lg font-semibold tabular-nums">{count.format(n)}</dd>
              </div>
            ))}
          </dl>
          {skippedTotal(data.skipped) > 0 ? (
            <p className="text-slate-700">{count.format(skippedTotal(data.skipped))} skipped.</p>
          ) : null}
          {data.failures.length > 0 ? (
            <ul aria-label="Failure reasons" className="list-disc pl-5 text-red-700">
              {data.failures.map((f) => (
                <li key={f.reason}>
                  {f.reason}: {count.format(f.count)}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  )
}
