import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { Appointment } from '@/shared/schemas/appointments'

/** GET /api/appointments/upcoming: the next 5 scheduled or confirmed, for the home page tab. */
export function getUpcomingAppointments(): Promise<Appointment[]> {
  return api.get<Appointment[]>('/api/appointments/upcoming')
}

export function getUpcomingAppointmentsQueryOptions() {
  return queryOptions({
    // Under the appointments key, so any booking or status change refreshes it.
    queryKey: ['/api/appointments', 'upcoming'] as const,
    queryFn: getUpcomingAppointments,
  })
}

export function useUpcomingAppointments(enabled = true) {
  return useQuery({ ...getUpcomingAppointmentsQueryOptions(), enabled })
}
