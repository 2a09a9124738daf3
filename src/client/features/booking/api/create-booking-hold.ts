import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { BookingHold, CreateBookingHoldInput } from '@/shared/schemas/booking'
import { bookingApiPath } from './get-booking-page'

export function createBookingHold(
  slug: string,
  input: CreateBookingHoldInput,
): Promise<BookingHold> {
  return api.post<BookingHold>(`${bookingApiPath(slug)}/holds`, input)
}

export function useCreateBookingHold(slug: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: CreateBookingHoldInput) => createBookingHold(slug, input),
    // A hold (or a slot found taken) changes the day's free slots.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['booking', slug, 'slots'] }),
  })
}
