import { useQuery } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import type { AppointmentAvailability } from '@/shared/schemas/appointments'
import { appointmentsRootKey } from './get-appointments'

/**
 * GET /api/appointments/availability: the doctor's taken times on a day, for the dialog's time
 * list. Under the appointments key, so a booking or a status change refreshes it.
 */
export function useDoctorAvailability(params: {
  doctorId: string
  date: string
  exceptId?: string | undefined
}) {
  const ready = params.doctorId !== '' && /^\d{4}-\d{2}-\d{2}$/.test(params.date)
  return useQuery({
    queryKey: [...appointmentsRootKey, 'availability', params] as const,
    queryFn: () =>
      api.get<AppointmentAvailability>(`/api/appointments/availability${toQuery({ ...params })}`),
    enabled: ready,
  })
}
