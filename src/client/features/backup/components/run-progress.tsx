import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { backupRootKey } from '../api/backup-configurations'
import { useBackupLog } from '../api/backup-logs'
import { ProgressBar } from './progress-bar'

/**
 * A running backup's bar. It polls GET /api/backup/logs/:id about every second; once the run
 * ends it refreshes the configurations and the activity list, which then show the result.
 */
export function RunProgress({ logId, initial }: { logId: string; initial: number }) {
  const log = useBackupLog(logId)
  const queryClient = useQueryClient()
  const status = log.data?.status
  useEffect(() => {
    if (status && status !== 'running')
      void queryClient.invalidateQueries({ queryKey: backupRootKey })
  }, [status, queryClient])
  const progress = log.data?.progress ?? initial
  return (
    <div aria-live="polite">
      <ProgressBar
        id={`backup-run-${logId}`}
        label={status && status !== 'running' ? 'Backup finished' : 'Backing up…'}
        value={status === 'success' ? 100 : progress}
      />
      {log.isError ? (
        <p className="mt-1 text-xs text-red-700">Could not get the backup’s progress.</p>
      ) : null}
    </div>
  )
}
