import { and, eq } from 'drizzle-orm'
import { formatDate, formatTime } from '../../../shared/dates'
import type { Appointment, CreateAppointmentData } from '../../../shared/schemas/appointments'
import type { AppointmentSource } from '../../../shared/scheduling'
import type { AppDb, Tx } from '../../db/client'
import { appointments, services } from '../../db/schema/appointments'
import { leads } from '../../db/schema/leads'
import { patients } from '../../db/schema/patients'
import { withTenant } from '../../db/tenant'
import { AppError, notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { recordActivity } from '../live-monitoring/activity'
import { patientLimit } from '../patients/patients.service'
import { toAppointment, wallClock } from './appointment-rows'
import { patientFromLead } from './book-from-lead'
import { withoutClash } from './clash'
import {
  assertDoctor,
  defaultHospitalContext,
  doctorLabel,
  type HospitalContext,
  hospitalContext,
} from './context'
import { scheduleReminders } from './reminders'

export interface AppointmentOptions {
  db: AppDb
  hospitalId: string
  userId: string
  impersonatorUserId?: string | null | undefined
}

export interface CreateAppointmentInTx {
  hospitalId: string
  /** The member who booked it; null for the public booking page. */
  userId: string | null
  impersonatorUserId?: string | null | undefined
  patientId: string
  doctorId: string
  serviceId: string | null
  /** Defaults to the service's name; one of serviceId or serviceType is needed. */
  serviceType: string | null | undefined
  startsAt: Date
  durationMinutes: number
  notes: string | null
  source: AppointmentSource
  leadId: string | null
  /**
   * The hospital's name, zone and reminder offsets (hospitalContext, read as the platform BEFORE
   * the tenant transaction: app_user cannot read hospitals). Default: India's zone, 24 h and 2 h.
   */
  hospital?: HospitalContext | undefined
  /** The doctor's name, for the response and the clash message (assertDoctor or doctorNames). */
  doctorName?: string | null | undefined
  now?: Date | undefined
}

export const PAST_TIME = 'Choose a time in the future'

/** A 400 on `time` for a start that is not ahead of now. */
export function assertFuture(startsAt: Date, now: Date): void {
  if (startsAt.getTime() > now.getTime()) return
  throw new AppError('VALIDATION', `Invalid input: time: ${PAST_TIME}`, [
    { path: 'time', message: PAST_TIME },
  ])
}

/** The service's name, or a 404 for an unknown one (another hospital's too: RLS hides it). */
export async function serviceName(tx: Tx, serviceId: string): Promise<string> {
  const [service] = await tx
    .select({ name: services.name })
    .from(services)
    .where(and(eq(services.id, serviceId), eq(services.active, true)))
  if (!service) throw notFound('Service')
  return service.name
}

/**
 * Books an appointment inside the caller's tenant transaction (the staff's POST and the public
 * booking page alike): checks the patient, the service and the lead (404 for unknown ones,
 * another hospital's included), inserts it `scheduled` (a 409 APPOINTMENT_CLASH naming the
 * clashing slot when the doctor is taken: the exclusion constraint decides, also under
 * concurrent requests), schedules its reminders and writes the audit row. The caller checks the
 * doctor (assertDoctor: users is a platform table) and the time (assertFuture) beforehand.
 */
export async function createAppointmentInTx(
  tx: Tx,
  input: CreateAppointmentInTx,
): Promise<Appointment> {
  const hospital = input.hospital ?? defaultHospitalContext
  const now = input.now ?? new Date()
  const [patient] = await tx
    .select({ name: patients.name, phone: patients.phone })
    .from(patients)
    .where(eq(patients.id, input.patientId))
  if (!patient) throw notFound('Patient')
  const serviceType =
    input.serviceType?.trim() || (input.serviceId ? await serviceName(tx, input.serviceId) : '')
  if (input.serviceId && input.serviceType) await serviceName(tx, input.serviceId)
  if (!serviceType) {
    throw new AppError('VALIDATION', 'Invalid input: serviceType: Service type is required', [
      { path: 'serviceType', message: 'Service type is required' },
    ])
  }
  if (input.leadId) {
    const [lead] = await tx.select({ id: leads.id }).from(leads).where(eq(leads.id, input.leadId))
    if (!lead) throw notFound('Lead')
  }
  const endsAt = new Date(input.startsAt.getTime() + input.durationMinutes * 60_000)
  const slot = { doctorId: input.doctorId, startsAt: input.startsAt, endsAt }
  const clash = { doctorName: input.doctorName, timeZone: hospital.timeZone }
  const [row] = await withoutClash(tx, slot, clash, () =>
    tx
      .insert(appointments)
      .values({
        hospitalId: input.hospitalId,
        patientId: input.patientId,
        doctorId: input.doctorId,
        serviceId: input.serviceId,
        serviceType,
        startsAt: input.startsAt,
        endsAt,
        durationMinutes: input.durationMinutes,
        status: 'scheduled',
        source: input.source,
        leadId: input.leadId,
        notes: input.notes,
        createdBy: input.userId,
      })
      .returning(),
  )
  if (!row) throw new Error('appointment was not saved')
  await scheduleReminders(tx, {
    hospitalId: input.hospitalId,
    appointment: {
      id: row.id,
      patientId: row.patientId,
      startsAt: row.startsAt,
      serviceType,
      doctorName: input.doctorName ?? null,
    },
    hospital,
    now,
  })
  const when = `${formatDate(row.startsAt, hospital.timeZone)} ${formatTime(row.startsAt, hospital.timeZone)}`
  await recordAudit(tx, {
    hospitalId: input.hospitalId,
    actorUserId: input.userId,
    impersonatorUserId: input.impersonatorUserId,
    action: 'appointment.created',
    entityType: 'appointment',
    entityId: row.id,
    summary: `Booked ${serviceType} for ${patient.name} with ${doctorLabel(input.doctorName)} on ${when}${input.source === 'online' ? ' (online)' : ''}`,
  })
  // Live monitoring: the staff member who booked it; a patient's own online booking counts
  // for the doctor it was booked with (decision 040).
  await recordActivity(tx, {
    hospitalId: input.hospitalId,
    userId: input.userId ?? input.doctorId,
    type: 'appointment_scheduled',
    data: {
      appointmentId: row.id,
      patientId: row.patientId,
      patientName: patient.name,
      serviceType,
      startsAt: row.startsAt.toISOString(),
      source: input.source,
      leadId: input.leadId,
    },
  })
  return toAppointment(
    { ...row, patientName: patient.name, patientPhone: patient.phone },
    input.doctorName ?? null,
  )
}

/**
 * POST /api/appointments: the doctor (400 on doctorId unless an active doctor of the
 * hospital), a start in the future in the hospital's zone (400 on time), the patient or the
 * lead's patient (patientFromLead), then createAppointmentInTx, all in one transaction.
 */
export async function createAppointment(
  opts: AppointmentOptions & { values: CreateAppointmentData; now?: Date | undefined },
): Promise<Appointment> {
  const { values } = opts
  const now = opts.now ?? new Date()
  const hospital = await hospitalContext(opts.db, opts.hospitalId)
  const doctorName = await assertDoctor(opts.db, opts.hospitalId, values.doctorId)
  const startsAt = wallClock(values.date, values.time, hospital.timeZone)
  assertFuture(startsAt, now)
  const limit = values.leadId ? await patientLimit(opts.db, opts.hospitalId) : null
  return withTenant(opts.db, opts, async (tx) => {
    const patientId =
      values.patientId ??
      (await patientFromLead(tx, { ...opts, leadId: values.leadId as string, limit }))
    return createAppointmentInTx(tx, {
      hospitalId: opts.hospitalId,
      userId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      patientId,
      doctorId: values.doctorId,
      serviceId: values.serviceId ?? null,
      serviceType: values.serviceType,
      startsAt,
      durationMinutes: values.durationMinutes,
      notes: values.notes,
      source: 'staff',
      leadId: values.leadId ?? null,
      hospital,
      doctorName,
      now,
    })
  })
}
