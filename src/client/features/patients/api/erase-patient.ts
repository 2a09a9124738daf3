import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { EraseResult } from '@/shared/schemas/data-rights'
import { patientsRootKey } from './get-patients'

/** POST /api/patients/:id/erase (admins): the patient's name typed again confirms it. */
export function erasePatient({
  id,
  confirmName,
}: {
  id: string
  confirmName: string
}): Promise<EraseResult> {
  return api.post<EraseResult>(`/api/patients/${encodeURIComponent(id)}/erase`, { confirmName })
}

export function useErasePatient() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: erasePatient,
    // Not awaited: the dialog closes (and says so) before the refetch renames the patient.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: patientsRootKey }),
  })
}

/** GET /api/patients/:id/export.(json|csv): a plain link, the browser downloads it. */
export function patientExportHref(id: string, format: 'json' | 'csv'): string {
  return `/api/patients/${encodeURIComponent(id)}/export.${format}`
}
