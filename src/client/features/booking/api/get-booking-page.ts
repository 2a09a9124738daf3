import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { BookingPage } from '@/shared/schemas/booking'

export const bookingApiPath = (slug: string) => `/api/public/booking/${encodeURIComponent(slug)}`

export function getBookingPage(slug: string): Promise<BookingPage> {
  return api.get<BookingPage>(bookingApiPath(slug))
}

/**
 * The page's data the server put into the HTML (#booking-data, modules/booking/booking-html.ts),
 * when it is for this slug: the first render is then the whole page, with no round trip.
 */
function inlinePage(slug: string): BookingPage | undefined {
  const block = document.getElementById('booking-data')
  if (!block?.textContent) return undefined
  try {
    const data = JSON.parse(block.textContent) as BookingPage
    return data.hospital.slug === slug ? data : undefined
  } catch {
    return undefined
  }
}

export const getBookingPageQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: ['booking', slug],
    queryFn: () => getBookingPage(slug),
    initialData: () => inlinePage(slug),
  })

export function useBookingPage(slug: string) {
  return useQuery(getBookingPageQueryOptions(slug))
}
