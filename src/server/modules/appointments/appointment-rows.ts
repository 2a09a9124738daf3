import { TZDate } from '@date-fns/tz'
import { and, eq } from 'drizzle-orm'
import type { Appointment } from '../../../shared/schemas/appointments'
import type { AppDb, Tx } from '../../db/client'
import { appointments } from '../../db/schema/appointments'
import { patients } from '../../db/schema/patients'
import { notFound } from '../../http/app-error'
import { doctorNames } from './context'

/** What a query selects for the response: the appointment and its patient's name and phone. */
export const appointmentColumns = {
  id: appointments.id,
  patientId: appointments.patientId,
  patientName: patients.name,
  patientPhone: patients.phone,
  doctorId: appointments.doctorId,
  serviceId: appointments.serviceId,
  serviceType: appointments.serviceType,
  startsAt: appointments.startsAt,
  endsAt: appointments.endsAt,
  durationMinutes: appointments.durationMinutes,
  status: appointments.status,
  source: appointments.source,
  leadId: appointments.leadId,
  notes: appointments.notes,
  cancelReason: appointments.cancelReason,
  createdAt: appointments.createdAt,
  updatedAt: appointments.updatedAt,
}

/** The appointment's patient (same hospital: the key's first column). */
export const patientJoin = and(
  eq(patients.hospitalId, appointments.hospitalId),
  eq(patients.id, appointments.patientId),
)

export interface AppointmentRow {
  id: string
  patientId: string
  patientName: string
  patientPhone: string
  doctorId: string
  serviceId: string | null
  serviceType: string
  startsAt: Date
  endsAt: Date
  durationMinutes: number
  status: Appointment['status']
  source: Appointment['source']
  leadId: string | null
  notes: string | null
  cancelReason: string | null
  createdAt: Date
  updatedAt: Date
}

/** The row as the API sends it, written out field by field. */
export function toAppointment(row: AppointmentRow, doctorName: string | null): Appointment {
  return {
    id: row.id,
    patientId: row.patientId,
    patientName: row.patientName,
    patientPhone: row.patientPhone,
    doctorId: row.doctorId,
    doctorName,
    serviceId: row.serviceId,
    serviceType: row.serviceType,
    appointmentDate: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    duration: row.durationMinutes,
    status: row.status,
    source: row.source,
    leadId: row.leadId,
    notes: row.notes,
    cancelReason: row.cancelReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

/** Rows with their doctors' names (read as the platform, after the tenant transaction). */
export async function withDoctorNames(
  db: AppDb,
  hospitalId: string,
  rows: AppointmentRow[],
): Promise<Appointment[]> {
  const names = await doctorNames(
    db,
    hospitalId,
    rows.map((r) => r.doctorId),
  )
  return rows.map((r) => toAppointment(r, names.get(r.doctorId) ?? null))
}

/** One appointment of the transaction's hospital with its patient; 404 otherwise. */
export async function findAppointment(tx: Tx, id: string, lock = false): Promise<AppointmentRow> {
  const q = tx
    .select(appointmentColumns)
    .from(appointments)
    .innerJoin(patients, patientJoin)
    .where(eq(appointments.id, id))
  const [row] = await (lock ? q.for('update', { of: appointments }) : q)
  if (!row) throw notFound('Appointment')
  return row
}

/** The instant of a wall-clock date ('yyyy-MM-dd') and time ('HH:mm') in `timeZone`. */
export function wallClock(date: string, time: string, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const [hh, mm] = time.split(':').map(Number) as [number, number]
  return new Date(new TZDate(y, m - 1, d, hh, mm, 0, 0, timeZone).getTime())
}

/** 'yyyy-MM-dd' and 'HH:mm' of an instant in `timeZone`. */
export function toWallClock(at: Date, timeZone: string): { date: string; time: string } {
  const z = new TZDate(at.getTime(), timeZone)
  const pad = (n: number) => String(n).padStart(2, '0')
  return {
    date: `${z.getFullYear()}-${pad(z.getMonth() + 1)}-${pad(z.getDate())}`,
    time: `${pad(z.getHours())}:${pad(z.getMinutes())}`,
  }
}
