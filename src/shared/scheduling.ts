/**
 * Appointments' shared vocabulary (issue 26, docs/decisions/026-appointments-billing.md):
 * statuses and the spec's transitions, durations, where a booking came from, and the hospital's
 * working hours. The database's CHECK constraints (drizzle/0017_appointments_billing.sql)
 * mirror these lists.
 */

export const appointmentStatuses = [
  'scheduled',
  'confirmed',
  'completed',
  'cancelled',
  'no-show',
] as const
export type AppointmentStatus = (typeof appointmentStatuses)[number]

/** Open statuses: can still be confirmed, edited, cancelled (the exclusion constraint's predicate). */
export const activeAppointmentStatuses = ['scheduled', 'confirmed'] as const

/**
 * Statuses that keep the doctor's time taken: every one but cancelled (issue 40, item 4). A
 * completed or no-show appointment took place in its slot, so that slot is never offered or
 * booked again (availability, the booking page and the clash check read this list).
 */
export const slotHoldingStatuses = ['scheduled', 'confirmed', 'completed', 'no-show'] as const

/**
 * The spec's transitions (section 4): scheduled → confirmed (Confirm), confirmed → completed
 * (Complete), an open appointment → cancelled (Cancel), and a past scheduled or confirmed one
 * → no-show (the No-show; "past" is checked by the server against the clock).
 * Completed, cancelled and no-show are final.
 */
export const appointmentTransitions: Record<AppointmentStatus, readonly AppointmentStatus[]> = {
  scheduled: ['confirmed', 'cancelled', 'no-show'],
  confirmed: ['completed', 'cancelled', 'no-show'],
  completed: [],
  cancelled: [],
  'no-show': [],
}

export function canMoveAppointment(from: AppointmentStatus, to: AppointmentStatus): boolean {
  return appointmentTransitions[from].includes(to)
}

export const appointmentDurations = [15, 30, 45, 60] as const
export type AppointmentDuration = (typeof appointmentDurations)[number]

/** 'staff': booked by a member; 'online': by the patient on the public booking page. */
export const appointmentSources = ['staff', 'online'] as const
export type AppointmentSource = (typeof appointmentSources)[number]

/** The channels a booking page sends its one-time code by. */
export const bookingCodeChannels = ['whatsapp', 'sms'] as const

/**
 * Working hours per weekday, '0' (Sunday) to '6' (Saturday): [open, close] as 'HH:mm' in the
 * hospital's time zone, or null when closed. The default: 09:00–20:00, Sunday closed.
 */
export type WorkingHours = Record<'0' | '1' | '2' | '3' | '4' | '5' | '6', [string, string] | null>
export const defaultWorkingHours: WorkingHours = {
  '0': null,
  '1': ['09:00', '20:00'],
  '2': ['09:00', '20:00'],
  '3': ['09:00', '20:00'],
  '4': ['09:00', '20:00'],
  '5': ['09:00', '20:00'],
  '6': ['09:00', '20:00'],
}

/** Appointment reminders by default: 24 hours and 2 hours before (minutes). */
export const defaultReminderOffsets = [1440, 120] as const

/** How long the booking page holds a slot while the visitor confirms the code. */
export const BOOKING_HOLD_MINUTES = 5
/** Tries of a booking code before the hold is spent. */
export const BOOKING_CODE_TRIES = 5
/** How far ahead the booking page offers slots. */
export const BOOKING_DAYS_AHEAD = 14
