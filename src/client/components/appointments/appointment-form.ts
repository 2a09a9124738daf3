import { z } from 'zod'
import { dateValueError } from '@/client/components/ui/date-field-text'
import type {
  Appointment,
  CreateAppointmentInput,
  EditAppointmentInput,
} from '@/shared/schemas/appointments'
import { appointmentDurations, type AppointmentDuration } from '@/shared/scheduling'
import { todayInZone, wallClockToInstant, type WallClock, zonedParts } from './appointment-time'
import type { PickedPatient } from './patient-picker'

/** What the New Appointment / Edit dialog holds while it is being filled in. */
export interface AppointmentFormValues {
  patient: PickedPatient | null
  doctorId: string
  serviceType: string
  /** 'yyyy-MM-dd' once a real date (the typed text until then), hospital zone. */
  date: string
  /** 'HH:mm' */
  time: string
  durationMinutes: string
  notes: string
}

const durations = appointmentDurations.map(String) as [string, ...string[]]

/**
 * The dialog's rules, with the server's messages. A start in the past is refused (the server
 * refuses it too, field `time`); an edit that keeps its date and time is not checked, so the
 * notes of a running appointment can still be changed.
 */
export function appointmentFormSchema(timeZone: string, keep?: WallClock, now = new Date()) {
  return z
    .object({
      patient: z
        .object({ id: z.string(), name: z.string(), phone: z.string().optional() })
        .nullable()
        .refine((p) => p !== null, { message: 'Choose a patient' }),
      doctorId: z.string().min(1, { message: 'Choose a doctor' }),
      serviceType: z
        .string()
        .trim()
        .min(1, { message: 'Service type is required' })
        .max(120, { message: 'Service type must be at most 120 characters' }),
      date: z.string().superRefine((v, ctx) => {
        const problem = v.trim() === '' ? 'Date is required' : dateValueError(v)
        if (problem) ctx.addIssue({ code: 'custom', message: problem })
      }),
      time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'Choose a time' }),
      durationMinutes: z.enum(durations, { message: 'Duration must be 15, 30, 45 or 60 minutes' }),
      notes: z.string().max(2000, { message: 'Notes must be at most 2000 characters' }),
    })
    .superRefine((v, ctx) => {
      if (dateValueError(v.date) || !/^\d{4}-\d{2}-\d{2}$/.test(v.date)) return
      if (keep && keep.date === v.date && keep.time === v.time) return
      if (v.date < todayInZone(timeZone, now)) {
        ctx.addIssue({ code: 'custom', path: ['date'], message: 'This date has passed' })
      } else if (wallClockToInstant({ date: v.date, time: v.time }, timeZone) <= now) {
        ctx.addIssue({ code: 'custom', path: ['time'], message: 'This time has passed' })
      }
    })
}

/** The catalogue entry a typed service type names, if any (case and spaces aside). */
export function matchService<T extends { id: string; name: string }>(
  services: readonly T[],
  text: string,
): T | undefined {
  const wanted = text.trim().toLowerCase()
  return services.find((s) => s.name.trim().toLowerCase() === wanted)
}

/** POST /api/appointments from the dialog: by patient, or by lead when booked from a lead. */
export function toCreateInput(
  values: AppointmentFormValues,
  services: readonly { id: string; name: string }[],
  fromLead: boolean,
): CreateAppointmentInput {
  const service = matchService(services, values.serviceType)
  const who = values.patient?.id ?? ''
  return {
    ...(fromLead ? { leadId: who } : { patientId: who }),
    doctorId: values.doctorId,
    ...(service ? { serviceId: service.id } : {}),
    serviceType: values.serviceType.trim(),
    date: values.date,
    time: values.time,
    durationMinutes: Number(values.durationMinutes) as AppointmentDuration,
    notes: values.notes.trim() || null,
  }
}

/** The dialog's starting values for an existing appointment, in the hospital's zone. */
export function editValues(appointment: Appointment, timeZone: string): AppointmentFormValues {
  const { date, time } = zonedParts(appointment.appointmentDate, timeZone)
  return {
    patient: {
      id: appointment.patientId,
      name: appointment.patientName,
      phone: appointment.patientPhone,
    },
    doctorId: appointment.doctorId,
    serviceType: appointment.serviceType,
    date,
    time,
    durationMinutes: String(appointment.duration),
    notes: appointment.notes ?? '',
  }
}

/** PATCH /api/appointments/:id for an edit: only what changed (null when nothing did). */
export function toEditInput(
  values: AppointmentFormValues,
  appointment: Appointment,
  timeZone: string,
  services: readonly { id: string; name: string }[],
): EditAppointmentInput | null {
  const before = editValues(appointment, timeZone)
  const input: EditAppointmentInput = {}
  if (values.doctorId !== before.doctorId) input.doctorId = values.doctorId
  const serviceType = values.serviceType.trim()
  if (serviceType !== before.serviceType) {
    const service = matchService(services, serviceType)
    input.serviceId = service?.id ?? null
    input.serviceType = serviceType
  }
  // A move sends both, so the server never pairs a new date with a stale time.
  if (values.date !== before.date || values.time !== before.time) {
    input.date = values.date
    input.time = values.time
  }
  if (values.durationMinutes !== before.durationMinutes)
    input.durationMinutes = Number(values.durationMinutes) as AppointmentDuration
  if (values.notes.trim() !== before.notes.trim()) input.notes = values.notes.trim() || null
  return Object.keys(input).length > 0 ? input : null
}
