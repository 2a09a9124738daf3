import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { BookingPage } from '@/shared/schemas/booking'

export const bookingApiPath = (slug: string) => `/api/public/booking/${encodeURIComponent(slug)}`

export function getBookingPage(slug: string): Promise<BookingPage> {
  return api.get<BookingPage>(bookingApiPath(slug))
}

export const getBookingPageQueryOptions = (slug: string) =>
  queryOptions({ queryKey: ['booking', slug], queryFn: () => getBookingPage(slug) })

export function useBookingPage(slug: string) {
  return useQuery(getBookingPageQueryOptions(slug))
}
