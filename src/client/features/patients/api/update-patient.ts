import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { Patient, UpdatePatientInput } from '@/shared/schemas/patients'
import { patientsRootKey } from './get-patients'

export function updatePatient({
  id,
  input,
}: {
  id: string
  input: UpdatePatientInput
}): Promise<Patient> {
  return api.patch<Patient>(`/api/patients/${id}`, input)
}

export function useUpdatePatient() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updatePatient,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: patientsRootKey }),
  })
}
