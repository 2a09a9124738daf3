import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { cn } from '@/client/lib/cn'
import { formatStorageBytes, storageKindLabels } from '@/shared/schemas/storage'
import { useStorageUsage } from '../api/storage-usage'

/**
 * Settings → Data (issue 39): the hospital's disk quota as a bar, "Storage: 312 MB of 2 GB
 * used", and what uses it, kind by kind. Every member sees it: an attachment or an import
 * refused for the quota sends them here.
 */
export function StorageUsageCard() {
  const query = useStorageUsage()
  return (
    <Card>
      <CardHeader>
        <CardTitle id="storage-title">Storage</CardTitle>
        <p className="text-sm text-slate-600">
          Attachments, backup files uploaded to restore, data exports and lead import files share
          your hospital’s storage. An upload that would go over it is refused.
        </p>
      </CardHeader>
      <CardContent className="space-y-3">
        {query.isPending ? (
          <p role="status" className="text-sm text-slate-600">
            Loading storage use…
          </p>
        ) : query.isError ? (
          <InlineLoadError
            message="Could not load your hospital’s storage use."
            onRetry={() => void query.refetch()}
          />
        ) : (
          <UsageBar usage={query.data} />
        )}
      </CardContent>
    </Card>
  )
}

function UsageBar({ usage }: { usage: NonNullable<ReturnType<typeof useStorageUsage>['data']> }) {
  const { usedBytes, limitBytes } = usage
  const percent = limitBytes > 0 ? Math.min(100, Math.round((usedBytes / limitBytes) * 100)) : 100
  const full = usedBytes >= limitBytes
  const summary = `Storage: ${formatStorageBytes(usedBytes)} of ${formatStorageBytes(limitBytes)} used`
  const used = usage.kinds.filter((k) => k.bytes > 0)
  return (
    <>
      <p className="text-sm font-medium text-slate-900">{summary}</p>
      <div
        role="progressbar"
        aria-labelledby="storage-title"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={summary}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className={cn(
            'h-full rounded-full',
            full ? 'bg-red-600' : percent >= 90 ? 'bg-amber-500' : 'bg-teal-600',
          )}
          style={{ width: `${percent}%` }}
        />
      </div>
      {full ? (
        <p className="text-sm text-red-700">
          Your hospital’s storage is full: new attachments, uploads, imports and exports are refused
          until files are removed.
        </p>
      ) : null}
      {used.length === 0 ? (
        <p className="text-sm text-slate-600">Nothing is stored yet.</p>
      ) : (
        <dl className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1 text-sm">
          {used.map((k) => (
            <div key={k.kind} className="contents">
              <dt className="min-w-0 break-words text-slate-700">{storageKindLabels[k.kind]}</dt>
              <dd className="text-right tabular-nums text-slate-900">
                {formatStorageBytes(k.bytes)}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </>
  )
}
