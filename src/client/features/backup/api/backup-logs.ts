import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import { type BackupLog, RECENT_LOGS } from '@/shared/schemas/backup'
import { backupRootKey } from './backup-configurations'

/** How often a running backup's progress is asked for. */
export const POLL_MS = 1000

/** GET /api/backup/logs?limit=10: Recent Backup Activity, newest first (spec section 9). */
export function getRecentLogsQueryOptions() {
  return queryOptions({
    queryKey: [...backupRootKey, 'logs', RECENT_LOGS],
    queryFn: () =>
      api
        .get<{ logs: BackupLog[] }>(`/api/backup/logs?limit=${RECENT_LOGS}`)
        .then((answer) => answer.logs),
  })
}

export function useRecentLogs() {
  return useQuery(getRecentLogsQueryOptions())
}

/**
 * GET /api/backup/logs/:id: one run's status and progress, polled about every second while it
 * runs (the job may run on another instance), then left alone.
 */
export function getLogQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...backupRootKey, 'log', id],
    queryFn: () =>
      api
        .get<{ log: BackupLog }>(`/api/backup/logs/${encodeURIComponent(id)}`)
        .then((answer) => answer.log),
    refetchInterval: (query) =>
      query.state.error || (query.state.data && query.state.data.status !== 'running')
        ? false
        : POLL_MS,
  })
}

export function useBackupLog(id: string) {
  return useQuery(getLogQueryOptions(id))
}

/** GET /api/backup/logs/:id/download: a plain link, the browser saves the encrypted file. */
export function logDownloadHref(id: string): string {
  return `/api/backup/logs/${encodeURIComponent(id)}/download`
}
