import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { CreatePatientInput, Patient } from '@/shared/schemas/patients'
import { patientsRootKey } from './get-patients'

export function createPatient(input: CreatePatientInput): Promise<Patient> {
  return api.post<Patient>('/api/patients/manual', input)
}

export function useCreatePatient() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createPatient,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: patientsRootKey }),
  })
}
