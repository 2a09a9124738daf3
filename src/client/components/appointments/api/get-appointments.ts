import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import type { Appointment } from '@/shared/schemas/appointments'
import type { AppointmentStatus } from '@/shared/scheduling'

/** Every appointments query key starts with this: invalidating it refreshes lists and tabs. */
export const appointmentsRootKey = ['/api/appointments'] as const

/** GET /api/appointments filters (spec: date and status are sent only when set). */
export interface AppointmentFilters {
  date?: string | undefined
  status?: AppointmentStatus | undefined
  doctorId?: string | undefined
  patientId?: string | undefined
  from?: string | undefined
  to?: string | undefined
  limit?: number | undefined
}

export function getAppointments(filters: AppointmentFilters): Promise<Appointment[]> {
  return api.get<Appointment[]>(`/api/appointments${toQuery({ ...filters })}`)
}

export function getAppointmentsQueryOptions(filters: AppointmentFilters = {}) {
  return queryOptions({
    queryKey: [...appointmentsRootKey, 'list', filters] as const,
    queryFn: () => getAppointments(filters),
  })
}

export function useAppointments(filters: AppointmentFilters, enabled = true) {
  return useQuery({ ...getAppointmentsQueryOptions(filters), enabled })
}
