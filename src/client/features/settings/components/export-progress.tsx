import { Download } from 'lucide-react'
import { Button } from '@/client/components/ui/button'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { EXPORT_FAILED_MESSAGE, type ExportKind } from '@/shared/schemas/data-export'
import { exportDownloadHref, useExportStatus } from '../api/data-export'

const count = new Intl.NumberFormat('en-IN')

/** 1.2 MB, 340 KB: sizes as people read them. */
export function fileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`
  return `${Math.max(1, Math.round(bytes / 1024))} KB`
}

const what: Record<ExportKind, string> = {
  data: 'Data export',
  fhir: 'Patients (FHIR R4)',
  backup: 'Backup',
}

/**
 * One export's progress bar (rows written of rows counted, polled from the job) and, when it is
 * done, its download link. The job runs on any instance; the file is kept for 48 hours.
 */
export function ExportProgress({
  jobId,
  kind,
  onDismiss,
}: {
  jobId: string
  kind: ExportKind
  onDismiss: () => void
}) {
  const status = useExportStatus(jobId)
  const s = status.data
  const labelId = `export-progress-${jobId}`
  if (status.isError && !s) {
    return (
      <div className="space-y-2">
        <InlineLoadError
          message="Could not get the export’s progress."
          onRetry={() => void status.refetch()}
        />
        <Button variant="outline" size="sm" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
    )
  }
  const finished = s?.status === 'done' || s?.status === 'failed'
  const percent = s && s.total > 0 ? Math.round((s.done / s.total) * 100) : finished ? 100 : 0
  return (
    <div className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-4">
      <div className="space-y-1.5">
        <div className="flex flex-wrap justify-between gap-x-3 gap-y-1 text-sm">
          <span id={labelId} className="font-medium">
            {what[kind]}:{' '}
            {!s || s.status === 'queued'
              ? 'waiting to start…'
              : s.status === 'running'
                ? 'exporting…'
                : s.status === 'done'
                  ? 'ready'
                  : 'failed'}
          </span>
          <span className="text-slate-600">
            {s ? `${count.format(s.done)} of ${count.format(s.total)} rows` : ''}
          </span>
        </div>
        <div
          role="progressbar"
          aria-labelledby={labelId}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${percent}%`}
          className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
        >
          <div
            className="h-full rounded-full bg-brand-600 transition-[width]"
            style={{ width: `${percent}%` }}
          />
        </div>
      </div>
      {s?.status === 'failed' ? (
        <p role="alert" className="text-sm text-red-700">
          {s.message ?? EXPORT_FAILED_MESSAGE}
        </p>
      ) : null}
      {s?.status === 'done' ? (
        <div role="status" className="flex flex-wrap items-center gap-3">
          <Button asChild>
            <a href={exportDownloadHref(jobId)} download={s.fileName ?? undefined}>
              <Download aria-hidden="true" />
              Download {kind === 'fhir' ? 'NDJSON' : 'zip'}
              {s.bytes ? ` (${fileSize(s.bytes)})` : ''}
            </a>
          </Button>
          <span className="text-sm text-slate-600">{s.fileName} · kept for 48 hours</span>
        </div>
      ) : null}
      {finished ? (
        <Button variant="ghost" size="sm" onClick={onDismiss}>
          Dismiss
        </Button>
      ) : null}
    </div>
  )
}
