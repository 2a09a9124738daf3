import type { BookingSlot } from '@/shared/schemas/booking'
import { type SlotsRequest, useBookingSlots } from '../api/get-booking-slots'
import { ErrorText, secondaryButton } from './page-shell'

/** The day's free times, or why there are none. */
export function SlotList({
  request,
  timeZone,
  onPick,
}: {
  request: SlotsRequest
  timeZone: string
  onPick: (slot: BookingSlot, dateLabel: string) => void
}) {
  const slots = useBookingSlots(request)
  if (slots.isPending) {
    return (
      <p role="status" className="mt-4 text-sm text-slate-600">
        Finding free times…
      </p>
    )
  }
  if (slots.isError) {
    return (
      <div className="mt-4">
        <ErrorText>We could not load the free times.</ErrorText>
        <button
          type="button"
          className={secondaryButton + ' mt-2'}
          onClick={() => void slots.refetch()}
        >
          Try again
        </button>
      </div>
    )
  }
  const day = slots.data
  return (
    <div className="mt-4">
      <h3 className="text-sm font-medium text-slate-800">
        Free times on {day.dateLabel}
        <span className="font-normal text-slate-600"> ({zoneName(timeZone)})</span>
      </h3>
      {day.slots.length === 0 ? (
        <p className="mt-2 rounded-md bg-slate-100 p-3 text-sm text-slate-700">
          {day.open ? 'No free slots on this day' : 'The clinic is closed on this day'}. Please
          choose another day.
        </p>
      ) : (
        <ul className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-4">
          {day.slots.map((slot) => (
            <li key={slot.startsAt}>
              <button
                type="button"
                onClick={() => onPick(slot, day.dateLabel)}
                className="h-11 w-full rounded-md border border-brand-700 bg-white text-sm font-medium text-brand-800 hover:bg-brand-50"
              >
                {slot.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** 'India Standard Time' for Asia/Kolkata (the browser's own name for the zone). */
export function zoneName(timeZone: string): string {
  try {
    const parts = new Intl.DateTimeFormat('en-IN', {
      timeZone,
      timeZoneName: 'long',
    }).formatToParts(new Date())
    return parts.find((p) => p.type === 'timeZoneName')?.value ?? timeZone
  } catch {
    return timeZone
  }
}
