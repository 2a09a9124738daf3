import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type {
  Appointment,
  AppointmentStatusInput,
  CreateAppointmentInput,
  EditAppointmentInput,
} from '@/shared/schemas/appointments'
import { appointmentsRootKey } from './get-appointments'

export function createAppointment(input: CreateAppointmentInput): Promise<Appointment> {
  return api.post<Appointment>('/api/appointments', input)
}

export function patchAppointment({
  id,
  input,
}: {
  id: string
  input: EditAppointmentInput | AppointmentStatusInput
}): Promise<Appointment> {
  return api.patch<Appointment>(`/api/appointments/${encodeURIComponent(id)}`, input)
}

/** Refreshes every appointments list (and, after booking from a lead, leads and patients). */
function useRefresh() {
  const queryClient = useQueryClient()
  return async (fromLead: boolean) => {
    await queryClient.invalidateQueries({ queryKey: appointmentsRootKey })
    if (fromLead) {
      await queryClient.invalidateQueries({ queryKey: ['/api/leads'] })
      await queryClient.invalidateQueries({ queryKey: ['/api/patients'] })
    }
  }
}

export function useCreateAppointment() {
  const refresh = useRefresh()
  return useMutation({
    mutationFn: createAppointment,
    onSuccess: (_data, input) => refresh(input.leadId !== undefined),
  })
}

/** An edit, reschedule or status change. */
export function usePatchAppointment() {
  const refresh = useRefresh()
  return useMutation({ mutationFn: patchAppointment, onSettled: () => refresh(false) })
}
