import { z } from 'zod'
import {
  appointmentDurations,
  appointmentSources,
  appointmentStatuses,
  type AppointmentDuration,
} from '../scheduling'
import { isoDate, optionalText } from './common'

/*
 * /api/appointments (issue 26; the contract shared by the appointments API and UI). Dates and
 * times a person types are wall-clock in the HOSPITAL's time zone; instants travel as ISO strings.
 */

/** The longest range `from`/`to` may span (days). */
export const APPOINTMENTS_MAX_RANGE_DAYS = 62
/** Rows GET /api/appointments answers when no limit is given, and the most it allows. */
export const APPOINTMENTS_DEFAULT_LIMIT = 200
export const APPOINTMENTS_MAX_LIMIT = 500
/** The home page's Upcoming Appointments tab. */
export const UPCOMING_APPOINTMENTS = 5

export const appointment = z.object({
  id: z.string(),
  patientId: z.string(),
  patientName: z.string(),
  /** E.164. */
  patientPhone: z.string(),
  doctorId: z.string(),
  doctorName: z.string().nullable(),
  serviceId: z.string().nullable(),
  serviceType: z.string(),
  /** ISO instant of the start. */
  appointmentDate: z.string(),
  endsAt: z.string(),
  duration: z.number(),
  status: z.enum(appointmentStatuses),
  source: z.enum(appointmentSources),
  leadId: z.string().nullable(),
  notes: z.string().nullable(),
  cancelReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Appointment = z.infer<typeof appointment>

export const appointmentDoctor = z.object({ id: z.string(), name: z.string() })
export type AppointmentDoctor = z.infer<typeof appointmentDoctor>

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/
const timeField = z
  .string({ message: 'Time must be HH:mm (24 hours)' })
  .regex(HHMM, { message: 'Time must be HH:mm (24 hours), e.g. 10:30' })
const dateField = z.string({ message: 'Date is required' }).pipe(isoDate)
const DURATION_MESSAGE = 'Duration must be 15, 30, 45 or 60 minutes'
const durationField = z
  .number({ message: DURATION_MESSAGE })
  .refine(
    (v): v is AppointmentDuration => (appointmentDurations as readonly number[]).includes(v),
    {
      message: DURATION_MESSAGE,
    },
  )
const idField = (label: string) => z.uuid({ message: `${label} must be a valid id` })
const serviceTypeField = z
  .string({ message: 'Service type must be text' })
  .trim()
  .min(1, { message: 'Service type is required' })
  .max(120, { message: 'Service type must be at most 120 characters' })

/** POST /api/appointments. Exactly one of patientId or leadId; serviceId or serviceType. */
export const createAppointmentInput = z
  .strictObject({
    patientId: idField('Patient').optional(),
    leadId: idField('Lead').optional(),
    doctorId: z.uuid({ message: 'Choose a doctor' }),
    serviceId: idField('Service').nullish(),
    serviceType: serviceTypeField.optional(),
    date: dateField,
    time: timeField,
    durationMinutes: durationField,
    notes: optionalText(2000),
  })
  .superRefine((v, ctx) => {
    if ((v.patientId === undefined) === (v.leadId === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['patientId'],
        message: 'Choose a patient',
      })
    if (v.serviceId == null && v.serviceType === undefined)
      ctx.addIssue({ code: 'custom', path: ['serviceType'], message: 'Service type is required' })
  })
export type CreateAppointmentInput = z.input<typeof createAppointmentInput>
export type CreateAppointmentData = z.output<typeof createAppointmentInput>

/** PATCH with a status: the spec's transitions (src/shared/scheduling.ts). */
export const appointmentStatusInput = z.strictObject({
  status: z.enum(appointmentStatuses, {
    message: 'Status must be scheduled, confirmed, completed, cancelled or no-show',
  }),
  reason: optionalText(500),
})
export type AppointmentStatusInput = z.input<typeof appointmentStatusInput>

/** PATCH as an edit or reschedule (scheduled or confirmed appointments only). */
export const editAppointmentInput = z
  .strictObject({
    doctorId: z.uuid({ message: 'Choose a doctor' }).optional(),
    serviceId: idField('Service').nullish(),
    serviceType: serviceTypeField.optional(),
    date: dateField.optional(),
    time: timeField.optional(),
    durationMinutes: durationField.optional(),
    notes: optionalText(2000).optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: 'Send at least one field to change' })
export type EditAppointmentInput = z.input<typeof editAppointmentInput>

/**
 * PATCH /api/appointments/:id: a status change when `status` is present, otherwise an edit.
 * (A body mixing both is refused: `status` is an unknown field of an edit and vice versa.)
 */
export const patchAppointmentInput = z.union([appointmentStatusInput, editAppointmentInput])
export type PatchAppointmentInput = z.input<typeof patchAppointmentInput>

/** Picks the schema by the presence of `status`, so field messages name the right fields. */
export function patchAppointmentSchema(body: unknown) {
  return body !== null && typeof body === 'object' && 'status' in body
    ? appointmentStatusInput
    : editAppointmentInput
}

const instant = (label: string) =>
  z
    .string({ message: `${label} must be a date and time` })
    .refine((v) => /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v)), {
      message: `${label} must be an ISO date and time`,
    })

/** GET /api/appointments?when=: today and later (soonest first) or before today (latest first). */
export const appointmentListWhens = ['upcoming', 'past'] as const
export type AppointmentListWhen = (typeof appointmentListWhens)[number]
/** Cards per page of the Appointments list. */
export const APPOINTMENTS_PAGE_SIZE = 20

/**
 * GET /api/appointments query. Filters combine; unknown keys are refused. Without `when` and
 * `page` the answer is the spec's: an array by start, at most `limit`. With either, it is one
 * page (`limit` rows after (page - 1) * limit) and the x-total-count header counts all matches.
 */
export const listAppointmentsQuery = z
  .strictObject({
    when: z.enum(appointmentListWhens, { message: 'when must be upcoming or past' }).optional(),
    page: z.coerce
      .number({ message: 'page must be a number' })
      .int({ message: 'page must be a whole number' })
      .min(1, { message: 'page must be at least 1' })
      .max(10_000, { message: 'page must be at most 10000' })
      .optional(),
    date: isoDate.optional(),
    status: z
      .enum(appointmentStatuses, {
        message: 'Status must be scheduled, confirmed, completed, cancelled or no-show',
      })
      .optional(),
    doctorId: z.uuid({ message: 'doctorId must be a valid id' }).optional(),
    patientId: z.uuid({ message: 'patientId must be a valid id' }).optional(),
    from: instant('from').optional(),
    to: instant('to').optional(),
    limit: z.coerce
      .number({ message: 'limit must be a number' })
      .int({ message: 'limit must be a whole number' })
      .min(1, { message: 'limit must be at least 1' })
      .max(APPOINTMENTS_MAX_LIMIT, { message: `limit must be at most ${APPOINTMENTS_MAX_LIMIT}` })
      .default(APPOINTMENTS_DEFAULT_LIMIT),
  })
  .superRefine((v, ctx) => {
    if (v.from === undefined || v.to === undefined) return
    const span = Date.parse(v.to) - Date.parse(v.from)
    if (span <= 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be after from' })
    else if (span > APPOINTMENTS_MAX_RANGE_DAYS * 86_400_000)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `from and to must be at most ${APPOINTMENTS_MAX_RANGE_DAYS} days apart`,
      })
  })
export type ListAppointmentsQuery = z.input<typeof listAppointmentsQuery>

/** GET /api/appointments/availability: a doctor's taken times on a day (the time list). */
export const appointmentAvailabilityQuery = z.strictObject({
  doctorId: z.uuid({ message: 'doctorId must be a valid id' }),
  date: isoDate,
  /** The appointment being edited: its own time is not taken. */
  exceptId: z.uuid({ message: 'exceptId must be a valid id' }).optional(),
})
export type AppointmentAvailabilityQuery = z.input<typeof appointmentAvailabilityQuery>

/**
 * Times the doctor is taken on the day (hospital zone) as ISO instants: every appointment but a
 * cancelled one (a completed one keeps its slot), and the booking page's live holds.
 */
export const appointmentAvailability = z.object({
  date: z.string(),
  busy: z.array(
    z.object({ startsAt: z.string(), endsAt: z.string(), kind: z.enum(['appointment', 'hold']) }),
  ),
})
export type AppointmentAvailability = z.infer<typeof appointmentAvailability>

/** The spec's error codes. */
export const APPOINTMENT_CLASH = 'APPOINTMENT_CLASH'
export const INVALID_TRANSITION = 'INVALID_TRANSITION'
