import { z } from 'zod'
import { bookingCodeChannels } from '../scheduling'
import { isoDate, phoneNumber } from './common'
import { normalizeIndianMobile } from './demo-requests'

/*
 * The public booking page's API (issue 26, "Patients book themselves"): /api/public/booking/:slug.
 * No sign-in. Times travel as ISO instants; the labels are already in the hospital's time zone.
 */

export const BOOKING_MOBILE_MESSAGE = 'Enter a valid Indian mobile number, e.g. 98765 43210'
export const BOOKING_CODE_MESSAGE = 'Enter the 6-digit code we sent you'
/** The grid free slots start on (minutes). */
export const BOOKING_SLOT_STEP_MINUTES = 15

export const bookingSlugParams = z.strictObject({
  slug: z.string().max(80, { message: 'Unknown booking page' }),
})

export const bookingHoldParams = z.strictObject({
  slug: z.string().max(80, { message: 'Unknown booking page' }),
  id: z.string().max(80, { message: 'Unknown hold' }),
})

export const bookingService = z.object({
  id: z.string(),
  name: z.string(),
  durationMinutes: z.number(),
  /** Paise (the catalogue's default price; 0 when the clinic shows none). */
  price: z.number(),
})
export type BookingService = z.infer<typeof bookingService>

export const bookingDoctor = z.object({ id: z.string(), name: z.string() })
export type BookingDoctor = z.infer<typeof bookingDoctor>

export const bookingDay = z.object({
  /** yyyy-MM-dd in the hospital's time zone. */
  date: z.string(),
  /** 'Wed, Nov 25' */
  label: z.string(),
  /** Working hours that day (false: closed). */
  open: z.boolean(),
})
export type BookingDay = z.infer<typeof bookingDay>

/** GET /api/public/booking/:slug */
export const bookingPage = z.object({
  hospital: z.object({
    name: z.string(),
    address: z.string().nullable(),
    timeZone: z.string(),
    slug: z.string(),
    /** The grievance officer (DPDP Act 2023), when the hospital has set one. */
    grievance: z.object({ name: z.string().nullable(), email: z.string() }).nullable().optional(),
  }),
  services: z.array(bookingService),
  doctors: z.array(bookingDoctor),
  /** The next BOOKING_DAYS_AHEAD days, today first. */
  days: z.array(bookingDay),
  holdMinutes: z.number(),
})
export type BookingPage = z.infer<typeof bookingPage>

/** GET /api/public/booking/:slug/slots?serviceId&doctorId&date (doctorId 'any': any offered doctor). */
export const bookingSlotsQuery = z.strictObject({
  serviceId: z.uuid({ message: 'Choose a service' }),
  doctorId: z.union([z.literal('any'), z.uuid({ message: 'Choose a doctor' })], {
    message: 'Choose a doctor or any doctor',
  }),
  date: isoDate,
})
export type BookingSlotsQuery = z.infer<typeof bookingSlotsQuery>

export const bookingSlot = z.object({
  /** ISO instant. */
  startsAt: z.string(),
  /** '10:30 AM' in the hospital's time zone. */
  label: z.string(),
})
export type BookingSlot = z.infer<typeof bookingSlot>

export const bookingSlots = z.object({
  date: z.string(),
  /** 'Nov 26, 2026' */
  dateLabel: z.string(),
  open: z.boolean(),
  slots: z.array(bookingSlot),
})
export type BookingSlots = z.infer<typeof bookingSlots>

/** POST /api/public/booking/:slug/holds. doctorId null: any offered doctor who is free. */
export const createBookingHoldInput = z.strictObject({
  serviceId: z.uuid({ message: 'Choose a service' }),
  doctorId: z.uuid({ message: 'Choose a doctor' }).nullable(),
  startsAt: z.iso.datetime({ offset: true, message: 'Choose a time' }),
  name: z
    .string({ message: 'Please enter your name' })
    .trim()
    .min(2, { message: 'Please enter your name' })
    .max(80, { message: 'Name must be at most 80 characters' }),
  phone: phoneNumber(normalizeIndianMobile, {
    required: 'Mobile number is required',
    invalid: BOOKING_MOBILE_MESSAGE,
  }),
  channel: z.enum(bookingCodeChannels, { message: 'Choose WhatsApp or SMS' }),
})
export type CreateBookingHoldInput = z.input<typeof createBookingHoldInput>

export const bookingHold = z.object({
  holdId: z.string(),
  expiresAt: z.string(),
  /** '+91 98765 •••10': where the code went. */
  sentTo: z.string(),
  channel: z.enum(bookingCodeChannels),
})
export type BookingHold = z.infer<typeof bookingHold>

/** POST /api/public/booking/:slug/holds/:id/confirm */
export const confirmBookingInput = z.strictObject({
  code: z
    .string({ message: BOOKING_CODE_MESSAGE })
    .trim()
    .regex(/^\d{6}$/, { message: BOOKING_CODE_MESSAGE }),
})

export const bookingConfirmation = z.object({
  appointmentId: z.string(),
  hospitalName: z.string(),
  serviceName: z.string(),
  doctorName: z.string(),
  patientName: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  /** 'Nov 26, 2026' and '10:00 AM' in the hospital's time zone. */
  dateLabel: z.string(),
  timeLabel: z.string(),
  timeZone: z.string(),
  status: z.literal('scheduled'),
  /** The clinic's phone (E.164) for changes, or null when the clinic has not given one. */
  clinicPhone: z.string().nullable(),
  /** Whether a confirmation message was queued to the visitor's number (issue 40, item 10). */
  confirmationSent: z.boolean(),
})
export type BookingConfirmation = z.infer<typeof bookingConfirmation>
