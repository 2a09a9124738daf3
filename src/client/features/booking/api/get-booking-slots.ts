import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import type { BookingSlots } from '@/shared/schemas/booking'
import { bookingApiPath } from './get-booking-page'

export interface SlotsRequest {
  slug: string
  serviceId: string
  /** A doctor's id, or 'any'. */
  doctorId: string
  date: string
}

export function getBookingSlots(r: SlotsRequest): Promise<BookingSlots> {
  const query = toQuery({ serviceId: r.serviceId, doctorId: r.doctorId, date: r.date })
  return api.get<BookingSlots>(`${bookingApiPath(r.slug)}/slots${query}`)
}

export const getBookingSlotsQueryOptions = (r: SlotsRequest) =>
  queryOptions({
    queryKey: ['booking', r.slug, 'slots', r.serviceId, r.doctorId, r.date],
    queryFn: () => getBookingSlots(r),
    // Slots change as others book: a day opened again is asked again.
    staleTime: 0,
  })

export function useBookingSlots(r: SlotsRequest | null) {
  return useQuery({
    ...getBookingSlotsQueryOptions(r ?? { slug: '', serviceId: '', doctorId: '', date: '' }),
    enabled: r !== null,
  })
}
