import { and, asc, count, desc, eq, gt, gte, inArray, lt, type SQL } from 'drizzle-orm'
import { addDays } from 'date-fns'
import type { Appointment } from '../../../shared/schemas/appointments'
import {
  type AppointmentListWhen,
  UPCOMING_APPOINTMENTS,
} from '../../../shared/schemas/appointments'
import {
  activeAppointmentStatuses,
  appointmentDurations,
  type AppointmentStatus,
} from '../../../shared/scheduling'
import { appointments } from '../../db/schema/appointments'
import { patients } from '../../db/schema/patients'
import { withTenant } from '../../db/tenant'
import { timeZoneOf } from '../leads/leads.stats'
import {
  appointmentColumns,
  findAppointment,
  patientJoin,
  toWallClock,
  wallClock,
  withDoctorNames,
} from './appointment-rows'
import type { AppointmentOptions } from './appointments.service'

/** The longest appointment: a range filter on starts_at may start this much earlier. */
const LONGEST_MS = Math.max(...appointmentDurations) * 60_000

export interface AppointmentFilters {
  date?: string | undefined
  status?: AppointmentStatus | undefined
  doctorId?: string | undefined
  patientId?: string | undefined
  from?: string | undefined
  to?: string | undefined
  when?: AppointmentListWhen | undefined
  page?: number | undefined
  limit: number
  now?: Date | undefined
}

/** One page of the list and how many match over all pages. */
export interface AppointmentsPage {
  items: Appointment[]
  total: number
}

/** The day after a 'yyyy-MM-dd'. */
function nextDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  return addDays(new Date(Date.UTC(y, m - 1, d)), 1)
    .toISOString()
    .slice(0, 10)
}

/**
 * GET /api/appointments: the hospital's appointments by start, filters combined. `date` is that
 * day in the hospital's zone (appointments starting on it); `from`/`to` are appointments that
 * overlap [from, to), the calendar's view (bounded on starts_at, so the index range is short).
 * `when` (issue 40): 'upcoming' starts from today's midnight in the hospital's zone, soonest
 * first; 'past' is before it, latest first. `page` skips (page - 1) * limit rows.
 */
export async function listAppointmentsPage(
  opts: AppointmentOptions & AppointmentFilters & { count: boolean },
): Promise<AppointmentsPage> {
  const where: (SQL | undefined)[] = []
  const tz = opts.date || opts.when ? await timeZoneOf(opts.db, opts.hospitalId) : null
  if (opts.date && tz) {
    where.push(
      gte(appointments.startsAt, wallClock(opts.date, '00:00', tz)),
      lt(appointments.startsAt, wallClock(nextDay(opts.date), '00:00', tz)),
    )
  }
  if (opts.when && tz) {
    const today = wallClock(toWallClock(opts.now ?? new Date(), tz).date, '00:00', tz)
    where.push(
      opts.when === 'upcoming'
        ? gte(appointments.startsAt, today)
        : lt(appointments.startsAt, today),
    )
  }
  if (opts.from) {
    const from = new Date(opts.from)
    where.push(
      gt(appointments.endsAt, from),
      gt(appointments.startsAt, new Date(from.getTime() - LONGEST_MS)),
    )
  }
  if (opts.to) where.push(lt(appointments.startsAt, new Date(opts.to)))
  if (opts.status) where.push(eq(appointments.status, opts.status))
  if (opts.doctorId) where.push(eq(appointments.doctorId, opts.doctorId))
  if (opts.patientId) where.push(eq(appointments.patientId, opts.patientId))
  const order =
    opts.when === 'past'
      ? [desc(appointments.startsAt), desc(appointments.id)]
      : [asc(appointments.startsAt), asc(appointments.id)]
  const { rows, total } = await withTenant(opts.db, opts, async (tx) => {
    const rows = await tx
      .select(appointmentColumns)
      .from(appointments)
      .innerJoin(patients, patientJoin)
      .where(and(...where))
      .orderBy(...order)
      .limit(opts.limit)
      .offset(((opts.page ?? 1) - 1) * opts.limit)
    if (!opts.count) return { rows, total: rows.length }
    const [counted] = await tx
      .select({ n: count() })
      .from(appointments)
      .where(and(...where))
    return { rows, total: Number(counted?.n ?? 0) }
  })
  return { items: await withDoctorNames(opts.db, opts.hospitalId, rows), total }
}

/** GET /api/appointments/upcoming: the next scheduled or confirmed ones from now. */
export async function upcomingAppointments(
  opts: AppointmentOptions & { now?: Date | undefined },
): Promise<Appointment[]> {
  const now = opts.now ?? new Date()
  const rows = await withTenant(opts.db, opts, (tx) =>
    tx
      .select(appointmentColumns)
      .from(appointments)
      .innerJoin(patients, patientJoin)
      .where(
        and(
          gte(appointments.startsAt, now),
          inArray(appointments.status, [...activeAppointmentStatuses]),
        ),
      )
      .orderBy(asc(appointments.startsAt), asc(appointments.id))
      .limit(UPCOMING_APPOINTMENTS),
  )
  return withDoctorNames(opts.db, opts.hospitalId, rows)
}

/** GET /api/appointments/:id (404 for another hospital's). */
export async function getAppointment(
  opts: AppointmentOptions & { id: string },
): Promise<Appointment> {
  const row = await withTenant(opts.db, opts, (tx) => findAppointment(tx, opts.id))
  const [appointment] = await withDoctorNames(opts.db, opts.hospitalId, [row])
  if (!appointment) throw new Error('appointment missing')
  return appointment
}
