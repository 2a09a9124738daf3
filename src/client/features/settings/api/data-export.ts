import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type {
  DeleteAllDataInput,
  DeleteAllResult,
  ExportKind,
  ExportStatus,
} from '@/shared/schemas/data-export'

/** POST /api/data/exports (admins): starts the export job; its progress is polled below. */
export function startExport(kind: ExportKind): Promise<{ jobId: string }> {
  return api.post<{ jobId: string }>('/api/data/exports', { kind })
}

export function useStartExport() {
  return useMutation({ mutationFn: startExport })
}

export const exportStatusKey = (jobId: string) => ['/api/data/exports', jobId] as const

/** GET /api/data/exports/:jobId: rows done of rows counted, and the file when done. */
export function getExportStatus(jobId: string): Promise<ExportStatus> {
  return api.get<ExportStatus>(`/api/data/exports/${encodeURIComponent(jobId)}`)
}

export function getExportStatusQueryOptions(jobId: string) {
  return queryOptions({
    queryKey: exportStatusKey(jobId),
    queryFn: () => getExportStatus(jobId),
    // Polled while the export runs (the job may run on another instance), then left alone.
    refetchInterval: (query) => {
      const status = query.state.data?.status
      return status === 'done' || status === 'failed' || query.state.error ? false : 700
    },
  })
}

export function useExportStatus(jobId: string) {
  return useQuery(getExportStatusQueryOptions(jobId))
}

/** GET /api/data/exports/:jobId/download: a plain link, the browser downloads the file. */
export function exportDownloadHref(jobId: string): string {
  return `/api/data/exports/${encodeURIComponent(jobId)}/download`
}

/** POST /api/data/delete-all (admins): the hospital's name and the admin's password. */
export function deleteAllData(input: DeleteAllDataInput): Promise<DeleteAllResult> {
  return api.post<DeleteAllResult>('/api/data/delete-all', input)
}

export function useDeleteAllData() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteAllData,
    // Every screen's data is gone: nothing cached may show it again.
    onSuccess: () => void queryClient.invalidateQueries(),
  })
}
