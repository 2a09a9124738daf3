import { and, asc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm'
import type { BookingDoctor, BookingService } from '../../../shared/schemas/booking'
import {
  BOOKING_CODE_TRIES,
  slotHoldingStatuses,
  type WorkingHours,
} from '../../../shared/scheduling'
import type { AppDb, Tx } from '../../db/client'
import { appointments, bookingHolds, bookingSettings, services } from '../../db/schema/appointments'
import { user } from '../../db/schema/auth'
import { hospitals } from '../../db/schema/hospitals'
import { withPlatform } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import type { Interval } from './booking-slots'

/**
 * The booking page's reads: the hospital behind a slug (with its page on), the doctors and
 * services it offers, and each doctor's busy times (active appointments and live holds).
 */

export interface BookingHospital {
  id: string
  name: string
  address: string | null
  /** The clinic's phone (the confirmation names it: issue 40, item 10). */
  phone: string | null
  timeZone: string
  slug: string
  workingHours: WorkingHours
  grievanceName: string | null
  grievanceEmail: string | null
}

/** One answer for an unknown slug and a page that is off: nothing tells them apart. */
export const PAGE_NOT_FOUND = 'This booking page is not available.'
export const pageNotFound = () => new AppError('NOT_FOUND', PAGE_NOT_FOUND)

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/

/** The hospital whose slug this is (a platform table, so read as the platform). */
export async function hospitalBySlug(db: AppDb, slug: string): Promise<BookingHospital> {
  if (!SLUG.test(slug) || slug.length > 60) throw pageNotFound()
  const [row] = await withPlatform(db, (tx) =>
    tx
      .select({
        id: hospitals.id,
        name: hospitals.name,
        address: hospitals.address,
        phone: hospitals.phone,
        timeZone: hospitals.timeZone,
        slug: hospitals.slug,
        workingHours: hospitals.workingHours,
        grievanceName: hospitals.grievanceName,
        grievanceEmail: hospitals.grievanceEmail,
        subscription: hospitals.subscriptionStatus,
      })
      .from(hospitals)
      .where(eq(hospitals.slug, slug)),
  )
  if (!row?.slug || row.subscription === 'cancelled') throw pageNotFound()
  return { ...row, slug: row.slug }
}

/** The page's settings in the hospital's tenant transaction; 404 when it is off. */
export async function pageSettings(tx: Tx): Promise<{ doctorIds: string[] }> {
  const [row] = await tx
    .select({ enabled: bookingSettings.enabled, doctorIds: bookingSettings.doctorIds })
    .from(bookingSettings)
  if (!row?.enabled) throw pageNotFound()
  return { doctorIds: row.doctorIds }
}

/** Active doctors of the hospital, by name (users is a platform table). */
export async function hospitalDoctors(db: AppDb, hospitalId: string): Promise<BookingDoctor[]> {
  return withPlatform(db, (tx) =>
    tx
      .select({ id: user.id, name: user.name })
      .from(user)
      .where(
        and(
          eq(user.hospitalId, hospitalId),
          eq(user.role, 'doctor'),
          eq(user.isActive, true),
          eq(user.banned, false),
          eq(user.isSuperAdmin, false),
        ),
      )
      .orderBy(asc(user.name), asc(user.id)),
  )
}

/** The doctors the page offers: those listed in its settings, or every active doctor. */
export function offeredDoctors(all: BookingDoctor[], listed: readonly string[]): BookingDoctor[] {
  if (listed.length === 0) return all
  const set = new Set(listed)
  return all.filter((d) => set.has(d.id))
}

/** Services the page offers: bookable and active, by name. */
export async function bookableServices(tx: Tx): Promise<BookingService[]> {
  return tx
    .select({
      id: services.id,
      name: services.name,
      durationMinutes: services.durationMinutes,
      price: services.defaultPrice,
    })
    .from(services)
    .where(and(eq(services.bookable, true), eq(services.active, true)))
    .orderBy(asc(services.name))
}

/** One offered service; 404 for another hospital's id or one that is not offered. */
export async function bookableService(tx: Tx, id: string): Promise<BookingService> {
  const [row] = await tx
    .select({
      id: services.id,
      name: services.name,
      durationMinutes: services.durationMinutes,
      price: services.defaultPrice,
    })
    .from(services)
    .where(and(eq(services.id, id), eq(services.bookable, true), eq(services.active, true)))
  if (!row) throw new AppError('NOT_FOUND', 'This service cannot be booked online.')
  return row
}

/** A hold that still keeps its slot: not confirmed, not spent, not expired. */
export const liveHold = () =>
  and(
    isNull(bookingHolds.confirmedAt),
    lt(bookingHolds.attempts, BOOKING_CODE_TRIES),
    gt(bookingHolds.expiresAt, sql`now()`),
  )

/**
 * Each doctor's busy intervals overlapping [from, to): every appointment but a cancelled one
 * (a completed one keeps its slot) and live holds.
 */
export async function busyTimes(
  tx: Tx,
  doctorIds: readonly string[],
  range: Interval,
): Promise<Map<string, Interval[]>> {
  const busy = new Map<string, Interval[]>()
  if (doctorIds.length === 0) return busy
  const ids = [...doctorIds]
  const booked = await tx
    .select({
      doctorId: appointments.doctorId,
      start: appointments.startsAt,
      end: appointments.endsAt,
    })
    .from(appointments)
    .where(
      and(
        inArray(appointments.doctorId, ids),
        inArray(appointments.status, [...slotHoldingStatuses]),
        lt(appointments.startsAt, range.end),
        gt(appointments.endsAt, range.start),
      ),
    )
  const held = await tx
    .select({
      doctorId: bookingHolds.doctorId,
      start: bookingHolds.startsAt,
      end: bookingHolds.endsAt,
    })
    .from(bookingHolds)
    .where(
      and(
        inArray(bookingHolds.doctorId, ids),
        liveHold(),
        lt(bookingHolds.startsAt, range.end),
        gt(bookingHolds.endsAt, range.start),
      ),
    )
  for (const b of [...booked, ...held]) {
    const list = busy.get(b.doctorId) ?? []
    list.push({ start: b.start, end: b.end })
    busy.set(b.doctorId, list)
  }
  return busy
}
