import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError, api } from '@/client/lib/api-client'
import type {
  RestoreInput,
  RestorePreview,
  RestoreRun,
  RestoreSource,
} from '@/shared/schemas/backup'
import { backupRootKey } from './backup-configurations'
import { POLL_MS } from './backup-logs'

/**
 * POST /api/backup/uploads: the backup file itself as the body (streamed by the browser, never
 * read into memory here). 201 {uploadId}, the source of a dry run and a restore.
 */
export async function uploadBackupFile(file: File): Promise<RestoreSource> {
  const response = await fetch('/api/backup/uploads', {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/octet-stream' },
    body: file,
  })
  const text = await response.text()
  if (!response.ok) throw new ApiError(response.status, response.statusText, text)
  const answer = JSON.parse(text) as { uploadId: string }
  return { uploadId: answer.uploadId }
}

/** POST /api/backup/restore/preview: the dry run, per table what a restore would change. */
export function useRestorePreview() {
  return useMutation({
    mutationFn: (input: RestoreInput) =>
      api.post<RestorePreview>('/api/backup/restore/preview', input),
  })
}

/** POST /api/backup/restore: 202 {restore}, its progress polled below. */
export function useStartRestore() {
  return useMutation({
    mutationFn: (input: RestoreInput) =>
      api.post<{ restore: RestoreRun }>('/api/backup/restore', input).then((a) => a.restore),
  })
}

/** GET /api/backup/restores/:id, polled about every second until the restore ends. */
export function getRestoreQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...backupRootKey, 'restore', id],
    queryFn: () =>
      api
        .get<{ restore: RestoreRun }>(`/api/backup/restores/${encodeURIComponent(id)}`)
        .then((answer) => answer.restore),
    refetchInterval: (query) =>
      query.state.error || (query.state.data && query.state.data.status !== 'running')
        ? false
        : POLL_MS,
  })
}

export function useRestoreRun(id: string) {
  return useQuery(getRestoreQueryOptions(id))
}

/** After a restore the hospital's data changed: nothing cached may show the old rows. */
export function useRefreshEverything() {
  const queryClient = useQueryClient()
  return () => void queryClient.invalidateQueries()
}
