import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { BookingConfirmation } from '@/shared/schemas/booking'
import { bookingApiPath } from './get-booking-page'

export function confirmBooking(
  slug: string,
  holdId: string,
  code: string,
): Promise<BookingConfirmation> {
  return api.post<BookingConfirmation>(
    `${bookingApiPath(slug)}/holds/${encodeURIComponent(holdId)}/confirm`,
    { code },
  )
}

export function useConfirmBooking(slug: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ holdId, code }: { holdId: string; code: string }) =>
      confirmBooking(slug, holdId, code),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['booking', slug, 'slots'] }),
  })
}
