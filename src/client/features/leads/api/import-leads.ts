import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, ApiError } from '@/client/lib/api-client'
import type { ImportMapping, ImportProgress, ImportStarted } from '@/shared/schemas/lead-import'
import { invalidateLeads } from './invalidate'

/**
 * POST /api/leads/import: the file itself is the body (text/csv, streamed by the browser), the
 * mapping a query parameter. The one upload of the API, so not through the JSON-only api.post.
 */
export async function uploadLeadsCsv(file: File, mapping: ImportMapping): Promise<ImportStarted> {
  const clean = Object.fromEntries(Object.entries(mapping).filter(([, column]) => column))
  const response = await fetch(
    `/api/leads/import?mapping=${encodeURIComponent(JSON.stringify(clean))}`,
    {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'text/csv' },
      body: file,
    },
  )
  const text = await response.text()
  if (!response.ok) throw new ApiError(response.status, response.statusText, text)
  return JSON.parse(text) as ImportStarted
}

export function useUploadLeadsCsv() {
  return useMutation({
    mutationFn: ({ file, mapping }: { file: File; mapping: ImportMapping }) =>
      uploadLeadsCsv(file, mapping),
  })
}

export const importProgressKey = (jobId: string) => ['/api/leads/import', jobId] as const

const finished = (p: ImportProgress | undefined) => p?.status === 'done' || p?.status === 'failed'

/** GET /api/leads/import/:jobId every second until the import is done (then leads refresh). */
export function useImportProgress(jobId: string | null) {
  const queryClient = useQueryClient()
  return useQuery({
    queryKey: importProgressKey(jobId ?? ''),
    enabled: jobId !== null,
    queryFn: async () => {
      const progress = await api.get<ImportProgress>(`/api/leads/import/${jobId}`)
      if (progress.status === 'done') await invalidateLeads(queryClient)
      return progress
    },
    refetchInterval: (query) => (finished(query.state.data) ? false : 1000),
    retry: 2,
  })
}

export const importErrorsUrl = (jobId: string) => `/api/leads/import/${jobId}/errors.csv`
