import { useEffect, useRef } from 'react'
import { toast } from '@/client/lib/toast'
import { useRefreshEverything, useRestoreRun } from '../api/backup-restore'
import { ProgressBar } from './progress-bar'
import { RestorePreviewTable } from './restore-preview-table'

/**
 * A restore under way: its bar (GET /api/backup/restores/:id about every second), then what it
 * changed, or why it failed (a failed restore changes nothing).
 */
export function RestoreProgress({ restoreId }: { restoreId: string }) {
  const run = useRestoreRun(restoreId)
  const refresh = useRefreshEverything()
  const status = run.data?.status
  const told = useRef(false)
  useEffect(() => {
    if (told.current || !status || status === 'running') return
    told.current = true
    if (status === 'success') {
      refresh()
      toast.success('Backup Restored')
    } else {
      toast.error('Restore Failed', 'Nothing was changed.')
    }
  }, [status, refresh])

  if (run.isError && !run.data)
    return (
      <p role="alert" className="text-sm text-red-700">
        Could not get the restore’s progress. It goes on on the server; reopen this page later.
      </p>
    )
  const r = run.data
  return (
    <div className="space-y-3" aria-live="polite">
      <ProgressBar
        id={`restore-${restoreId}`}
        label={
          !r || r.status === 'running'
            ? 'Restoring…'
            : r.status === 'success'
              ? 'Restore complete'
              : 'Restore failed'
        }
        value={r?.status === 'success' ? 100 : (r?.progress ?? 0)}
      />
      {r?.status === 'failed' ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {r.error ?? 'The restore failed.'} Nothing was changed.
        </p>
      ) : null}
      {r?.status === 'success' ? (
        <div role="status" className="space-y-2">
          <p className="text-sm font-medium text-green-800">
            The backup was restored. Every screen now shows the restored data.
          </p>
          {r.tables ? (
            <RestorePreviewTable tables={r.tables} caption="What the restore changed" done />
          ) : null}
        </div>
      ) : null}
    </div>
  )
}
