import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { appointmentsRootKey } from '@/client/components/appointments/api/get-appointments'
import { apiFetch, toQuery } from '@/client/lib/api-client'
import {
  type Appointment,
  type AppointmentListWhen,
  APPOINTMENTS_PAGE_SIZE,
} from '@/shared/schemas/appointments'
import type { AppointmentStatus } from '@/shared/scheduling'
import { TOTAL_COUNT_HEADER } from '@/shared/total-count'

export interface AppointmentsPageParams {
  /** Today and later (soonest first) or before today (latest first); ignored with a date. */
  when: AppointmentListWhen
  /** One day ('yyyy-MM-dd', hospital zone) instead of `when`. */
  date?: string | undefined
  status?: AppointmentStatus | undefined
  page: number
}

export interface AppointmentsPage {
  items: Appointment[]
  /** Appointments matching over all pages (the x-total-count header). */
  total: number
}

/** One page of the Appointments list (GET /api/appointments?when=&page=&limit=). */
export async function getAppointmentsPage(
  params: AppointmentsPageParams,
): Promise<AppointmentsPage> {
  const response = await apiFetch(
    'GET',
    `/api/appointments${toQuery({
      when: params.date ? undefined : params.when,
      date: params.date,
      status: params.status,
      page: params.page,
      limit: APPOINTMENTS_PAGE_SIZE,
    })}`,
  )
  const items = (await response.json()) as Appointment[]
  const total = Number(response.headers.get(TOTAL_COUNT_HEADER) ?? Number.NaN)
  return { items, total: Number.isFinite(total) ? total : items.length }
}

export function useAppointmentsPage(params: AppointmentsPageParams) {
  return useQuery({
    queryKey: [...appointmentsRootKey, 'page', params] as const,
    queryFn: () => getAppointmentsPage(params),
    placeholderData: keepPreviousData,
  })
}
