import { formatDate } from '../../../shared/dates'
import type { BookingPage, BookingSlots, BookingSlotsQuery } from '../../../shared/schemas/booking'
import { BOOKING_HOLD_MINUTES } from '../../../shared/scheduling'
import type { AppDb } from '../../db/client'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import {
  bookingDays,
  dateIn,
  freeSlots,
  hoursOn,
  withinBookingDays,
  zonedInstant,
} from './booking-slots'
import {
  bookableService,
  bookableServices,
  busyTimes,
  hospitalBySlug,
  hospitalDoctors,
  offeredDoctors,
  pageSettings,
} from './booking.queries'

/**
 * GET /api/public/booking/:slug and its slots (issue 26, "Patients book themselves"). No
 * sign-in: the slug names the hospital, and its tenant transaction runs with no user.
 */

/** The page: hospital, services and doctors offered, the next days; 404 when off or unknown. */
export async function getBookingPage(
  db: AppDb,
  slug: string,
  now = new Date(),
): Promise<BookingPage> {
  const hospital = await hospitalBySlug(db, slug)
  const { doctorIds, services } = await withTenant(
    db,
    { hospitalId: hospital.id, userId: null },
    async (tx) => ({ ...(await pageSettings(tx)), services: await bookableServices(tx) }),
  )
  const doctors = offeredDoctors(await hospitalDoctors(db, hospital.id), doctorIds)
  return {
    hospital: {
      name: hospital.name,
      address: hospital.address,
      timeZone: hospital.timeZone,
      slug: hospital.slug,
      grievance: hospital.grievanceEmail
        ? { name: hospital.grievanceName, email: hospital.grievanceEmail }
        : null,
    },
    services,
    doctors,
    days: bookingDays(now, hospital.timeZone, hospital.workingHours),
    holdMinutes: BOOKING_HOLD_MINUTES,
  }
}

const doctorNotOffered = () =>
  new AppError('NOT_FOUND', 'This doctor cannot be booked online. Please choose another.')

/** The doctors a request may get: the one asked for (when offered), or every offered one. */
export function doctorsFor(offered: readonly { id: string }[], asked: string | null): string[] {
  if (asked === null) {
    if (offered.length === 0) throw doctorNotOffered()
    return offered.map((d) => d.id).sort()
  }
  if (!offered.some((d) => d.id === asked)) throw doctorNotOffered()
  return [asked]
}

/** Free slots of one day for a service and a doctor (or any offered doctor). */
export async function getBookingSlots(
  db: AppDb,
  slug: string,
  query: BookingSlotsQuery,
  now = new Date(),
): Promise<BookingSlots> {
  const hospital = await hospitalBySlug(db, slug)
  const { timeZone, workingHours: hours } = hospital
  if (!withinBookingDays(query.date, now, timeZone)) {
    const message = 'Choose a day within the next 14 days.'
    throw new AppError('VALIDATION', message, [{ path: 'date', message }])
  }
  const allDoctors = await hospitalDoctors(db, hospital.id)
  const dateLabel = formatDate(zonedInstant(query.date, 12 * 60, timeZone), timeZone)
  return withTenant(db, { hospitalId: hospital.id, userId: null }, async (tx) => {
    const settings = await pageSettings(tx)
    const service = await bookableService(tx, query.serviceId)
    const offered = offeredDoctors(allDoctors, settings.doctorIds)
    const doctorIds = doctorsFor(offered, query.doctorId === 'any' ? null : query.doctorId)
    const open = hoursOn(query.date, hours)
    if (!open) return { date: query.date, dateLabel, open: false, slots: [] }
    const range = {
      start: zonedInstant(query.date, open[0], timeZone),
      end: zonedInstant(query.date, open[1], timeZone),
    }
    const busy = await busyTimes(tx, doctorIds, range)
    const slots = freeSlots({
      date: query.date,
      timeZone,
      hours,
      duration: service.durationMinutes,
      now,
      doctorIds,
      busy,
    })
    return { date: dateIn(range.start, timeZone), dateLabel, open: true, slots }
  })
}
