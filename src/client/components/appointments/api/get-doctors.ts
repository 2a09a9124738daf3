import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { AppointmentDoctor } from '@/shared/schemas/appointments'

/** GET /api/appointments/doctors: active members with the doctor role, by name. */
export function getDoctors(): Promise<AppointmentDoctor[]> {
  return api.get<AppointmentDoctor[]>('/api/appointments/doctors')
}

export function getDoctorsQueryOptions() {
  return queryOptions({ queryKey: ['/api/appointments/doctors'] as const, queryFn: getDoctors })
}

export function useDoctors(enabled = true) {
  return useQuery({ ...getDoctorsQueryOptions(), enabled })
}
