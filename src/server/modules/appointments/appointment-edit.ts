import { eq } from 'drizzle-orm'
import { formatDate, formatTime } from '../../../shared/dates'
import type { Appointment } from '../../../shared/schemas/appointments'
import type { EditAppointmentInput } from '../../../shared/schemas/appointments'
import { activeAppointmentStatuses } from '../../../shared/scheduling'
import { appointments } from '../../db/schema/appointments'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { findAppointment, toAppointment, toWallClock, wallClock } from './appointment-rows'
import { type AppointmentOptions, assertFuture, serviceName } from './appointments.service'
import { withoutClash } from './clash'
import { assertDoctor, doctorLabel, doctorNames, hospitalContext } from './context'
import { moveReminders } from './reminders'

type EditValues = Omit<EditAppointmentInput, 'durationMinutes'> & {
  durationMinutes?: number | undefined
}

/** The 409 for editing an appointment that is no longer open. */
export const notEditable = (status: string) =>
  new AppError(
    'INVALID_TRANSITION',
    `Only scheduled or confirmed appointments can be edited; this one is ${status}.`,
  )

/**
 * PATCH /api/appointments/:id as an edit or reschedule (scheduled or confirmed only): doctor
 * (an active doctor of the hospital, else 400), service, date and time (wall-clock in the
 * hospital's zone; a moved start must be in the future), duration and notes. The exclusion
 * constraint refuses a slot the doctor has taken (409 APPOINTMENT_CLASH naming it). A new time,
 * doctor or service moves the pending reminders. Audited.
 */
export async function editAppointment(
  opts: AppointmentOptions & { id: string; values: EditValues; now?: Date | undefined },
): Promise<Appointment> {
  const { values } = opts
  const now = opts.now ?? new Date()
  const hospital = await hospitalContext(opts.db, opts.hospitalId)
  const tz = hospital.timeZone
  // The doctor's name is a platform read, so it is read before the tenant transaction.
  const doctorName = values.doctorId
    ? await assertDoctor(opts.db, opts.hospitalId, values.doctorId)
    : await currentDoctorName(opts)
  const row = await withTenant(opts.db, opts, async (tx) => {
    const current = await findAppointment(tx, opts.id, true)
    if (!(activeAppointmentStatuses as readonly string[]).includes(current.status))
      throw notEditable(current.status)
    const wall = toWallClock(current.startsAt, tz)
    const startsAt = wallClock(values.date ?? wall.date, values.time ?? wall.time, tz)
    const moved = startsAt.getTime() !== current.startsAt.getTime()
    if (moved) assertFuture(startsAt, now)
    const serviceId = values.serviceId === undefined ? current.serviceId : values.serviceId
    const catalogueName = serviceId ? await serviceName(tx, serviceId) : null
    const serviceType =
      values.serviceType ??
      (serviceId !== current.serviceId && catalogueName ? catalogueName : current.serviceType)
    const duration = values.durationMinutes ?? current.durationMinutes
    const endsAt = new Date(startsAt.getTime() + duration * 60_000)
    const doctorId = values.doctorId ?? current.doctorId
    const slot = { doctorId, startsAt, endsAt, exceptId: current.id }
    const [updated] = await withoutClash(tx, slot, { doctorName, timeZone: tz }, () =>
      tx
        .update(appointments)
        .set({
          doctorId,
          serviceId,
          serviceType,
          startsAt,
          endsAt,
          durationMinutes: duration,
          notes: values.notes === undefined ? current.notes : values.notes,
          updatedAt: now,
        })
        .where(eq(appointments.id, current.id))
        .returning(),
    )
    if (!updated) throw new Error('appointment was not updated')
    const rescheduled = moved || doctorId !== current.doctorId
    if (rescheduled || serviceType !== current.serviceType) {
      await moveReminders(tx, {
        hospitalId: opts.hospitalId,
        appointment: {
          id: current.id,
          patientId: current.patientId,
          startsAt,
          serviceType,
          doctorName,
        },
        hospital,
        now,
      })
    }
    const changed = Object.keys(values).join(', ')
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: rescheduled ? 'appointment.rescheduled' : 'appointment.updated',
      entityType: 'appointment',
      entityId: current.id,
      summary: rescheduled
        ? `Rescheduled ${current.patientName}'s appointment to ${formatDate(startsAt, tz)} ${formatTime(startsAt, tz)} with ${doctorLabel(doctorName)}`
        : `Updated ${changed} of ${current.patientName}'s appointment`,
    })
    return { ...updated, patientName: current.patientName, patientPhone: current.patientPhone }
  })
  return toAppointment(row, doctorName)
}

async function currentDoctorName(opts: AppointmentOptions & { id: string }) {
  const current = await withTenant(opts.db, opts, (tx) => findAppointment(tx, opts.id))
  const names = await doctorNames(opts.db, opts.hospitalId, [current.doctorId])
  return names.get(current.doctorId) ?? null
}
