import { and, asc, eq, gt, inArray, lt, ne } from 'drizzle-orm'
import type { AppointmentAvailability } from '../../../shared/schemas/appointments'
import { slotHoldingStatuses } from '../../../shared/scheduling'
import { appointments, bookingHolds } from '../../db/schema/appointments'
import { withTenant } from '../../db/tenant'
import { liveHold } from '../booking/booking.queries'
import { timeZoneOf } from '../leads/leads.stats'
import { wallClock } from './appointment-rows'
import type { AppointmentOptions } from './appointments.service'

/** The day after a 'yyyy-MM-dd'. */
function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + 1)
  return d.toISOString().slice(0, 10)
}

/**
 * GET /api/appointments/availability (issue 40, item 12): the doctor's taken times overlapping
 * the day in the hospital's zone, so the New Appointment dialog marks booked times before
 * submit. The same rule as the clash check and the booking page: every appointment but a
 * cancelled one (slotHoldingStatuses), and the booking page's live holds. `exceptId` leaves out
 * the appointment being edited. Another hospital's doctor simply has nothing (RLS).
 */
export async function doctorAvailability(
  opts: AppointmentOptions & { doctorId: string; date: string; exceptId?: string | undefined },
): Promise<AppointmentAvailability> {
  const tz = await timeZoneOf(opts.db, opts.hospitalId)
  const start = wallClock(opts.date, '00:00', tz)
  const end = wallClock(nextDay(opts.date), '00:00', tz)
  const { booked, held } = await withTenant(opts.db, opts, async (tx) => ({
    booked: await tx
      .select({ startsAt: appointments.startsAt, endsAt: appointments.endsAt })
      .from(appointments)
      .where(
        and(
          eq(appointments.doctorId, opts.doctorId),
          inArray(appointments.status, [...slotHoldingStatuses]),
          lt(appointments.startsAt, end),
          gt(appointments.endsAt, start),
          opts.exceptId ? ne(appointments.id, opts.exceptId) : undefined,
        ),
      )
      .orderBy(asc(appointments.startsAt)),
    held: await tx
      .select({ startsAt: bookingHolds.startsAt, endsAt: bookingHolds.endsAt })
      .from(bookingHolds)
      .where(
        and(
          eq(bookingHolds.doctorId, opts.doctorId),
          liveHold(),
          lt(bookingHolds.startsAt, end),
          gt(bookingHolds.endsAt, start),
        ),
      )
      .orderBy(asc(bookingHolds.startsAt)),
  }))
  const iso = (r: { startsAt: Date; endsAt: Date }) => ({
    startsAt: r.startsAt.toISOString(),
    endsAt: r.endsAt.toISOString(),
  })
  return {
    date: opts.date,
    busy: [
      ...booked.map((r) => ({ ...iso(r), kind: 'appointment' as const })),
      ...held.map((r) => ({ ...iso(r), kind: 'hold' as const })),
    ].sort((a, b) => a.startsAt.localeCompare(b.startsAt)),
  }
}
