import { Download, History, RotateCcw } from 'lucide-react'
import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { useUser } from '@/client/lib/current-user'
import { formatBytes } from '@/shared/backup-format'
import { type BackupLog, backupTypeLabels } from '@/shared/schemas/backup'
import { logDownloadHref, useRecentLogs } from '../api/backup-logs'
import { dataTypesText, dateTimeText, logStatusView } from '../backup-view'
import { RunProgress } from './run-progress'

const count = new Intl.NumberFormat('en-IN')

function LogEntry({ log, onRestore }: { log: BackupLog; onRestore: (log: BackupLog) => void }) {
  const timeZone = useUser().data?.timeZone
  const status = logStatusView[log.status]
  const started = dateTimeText(log.startedAt, timeZone)
  return (
    <li className="min-w-0 space-y-2 rounded-lg border border-slate-200 bg-white p-3 sm:p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <Badge variant={status.variant}>{status.label}</Badge>
          <span className="font-medium">{backupTypeLabels[log.backupType]}</span>
          <span className="text-sm text-slate-600">{dataTypesText(log.dataTypes)}</span>
        </div>
        <div className="flex flex-wrap gap-2">
          {log.downloadable ? (
            <Button asChild size="sm" variant="outline">
              <a
                href={logDownloadHref(log.id)}
                download
                aria-label={`Download the backup of ${started}`}
              >
                <Download aria-hidden="true" /> Download
              </a>
            </Button>
          ) : null}
          {log.status === 'success' && log.downloadable ? (
            <Button
              size="sm"
              variant="outline"
              onClick={() => onRestore(log)}
              aria-label={`Restore the backup of ${started}`}
            >
              <RotateCcw aria-hidden="true" /> Restore
            </Button>
          ) : null}
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-xs text-slate-600 sm:grid-cols-3">
        <div className="col-span-2 flex flex-wrap gap-1 sm:col-span-1">
          <dt>Started:</dt>
          <dd className="text-slate-800">{started}</dd>
        </div>
        <div className="flex flex-wrap gap-1">
          <dt>Size:</dt>
          <dd className="text-slate-800">
            {log.dataSize === null ? '—' : formatBytes(log.dataSize)}
          </dd>
        </div>
        <div className="flex flex-wrap gap-1">
          <dt>Records:</dt>
          <dd className="text-slate-800">
            {log.recordCount === null ? '—' : count.format(log.recordCount)}
          </dd>
        </div>
      </dl>
      {log.status === 'running' ? <RunProgress logId={log.id} initial={log.progress} /> : null}
      {log.status === 'failed' && log.error ? (
        <p className="text-sm text-red-700">{log.error}</p>
      ) : null}
    </li>
  )
}

/** 'Recent Backup Activity': the latest 10 logs (spec sections 2 and 9). */
export function RecentActivity({ onRestore }: { onRestore: (log: BackupLog) => void }) {
  const logs = useRecentLogs()
  return (
    <section aria-labelledby="backup-activity" className="space-y-3">
      <h2 id="backup-activity" className="text-lg font-semibold">
        Recent Backup Activity
      </h2>
      {logs.isPending ? (
        <div className="space-y-3" role="status" aria-label="Loading backup activity">
          <Skeleton className="h-20 w-full" />
          <Skeleton className="h-20 w-full" />
        </div>
      ) : logs.isError ? (
        <InlineLoadError
          message="Failed to load the backup activity."
          onRetry={() => void logs.refetch()}
        />
      ) : logs.data.length === 0 ? (
        <p className="flex items-center justify-center gap-2 rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
          <History className="size-4 shrink-0" aria-hidden="true" />
          No backups have run yet.
        </p>
      ) : (
        <ul className="space-y-3" aria-label="Backup logs">
          {logs.data.map((log) => (
            <LogEntry key={log.id} log={log} onRestore={onRestore} />
          ))}
        </ul>
      )}
    </section>
  )
}
