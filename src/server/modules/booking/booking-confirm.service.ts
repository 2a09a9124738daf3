import { asc, count, eq, sql } from 'drizzle-orm'
import { formatDate, formatTime } from '../../../shared/dates'
import type { BookingConfirmation } from '../../../shared/schemas/booking'
import { BOOKING_CODE_TRIES } from '../../../shared/scheduling'
import type { AppDb, Tx } from '../../db/client'
import { bookingHolds, services } from '../../db/schema/appointments'
import { patients } from '../../db/schema/patients'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { createAppointmentInTx } from '../appointments/appointments.service'
import { doctorLabel, hospitalContext } from '../appointments/context'
import { recordAudit } from '../audit/audit.service'
import { patientLimit } from '../patients/patients.service'
import { bookingCodeMatches, type CodeKey } from './booking-code'
import { bookingConfirmationText, queueBookingConfirmation } from './booking-confirmation-message'
import { takeConfirmQuota } from './booking-limits'
import { slotText } from './booking-holds.service'
import { hospitalBySlug, hospitalDoctors, pageSettings } from './booking.queries'

/**
 * POST /api/public/booking/:slug/holds/:id/confirm: the visitor's code. Right, within the hold's
 * 5 minutes and 5 tries: the patient with that mobile and that name (or a new one) is booked
 * through createAppointmentInTx (source 'online', scheduled) and the hold marked confirmed. A
 * wrong code counts a try, committed before the 400 is answered.
 *
 * A code proves the visitor holds the mobile, not who they are (issue 39, item 11): a mobile
 * alone never attaches the booking to a stored patient (a shared family phone, a reassigned
 * number), and the answer names only what the visitor typed, never a stored name.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const HOLD_NOT_FOUND = 'This booking was not found. Please choose a time again.'
export const HOLD_EXPIRED =
  'This code has expired and the time is no longer held. Please choose a time again.'
export const HOLD_SPENT =
  'Too many wrong codes: this time is no longer held. Please choose a time again.'
export const HOLD_CONFIRMED = 'This booking is already confirmed.'

export const wrongCodeMessage = (left: number) =>
  left > 0
    ? `Wrong code. ${left} ${left === 1 ? 'try' : 'tries'} left.`
    : 'Wrong code. No tries left: please choose a time again.'

type Outcome = { kind: 'booked'; booked: BookingConfirmation } | { kind: 'wrong'; left: number }

export async function confirmBooking(opts: {
  db: AppDb
  codeKey: CodeKey
  slug: string
  holdId: string
  code: string
  ip: string
  now?: Date
}): Promise<BookingConfirmation> {
  const { db } = opts
  const hospital = await hospitalBySlug(db, opts.slug)
  if (!UUID.test(opts.holdId)) throw new AppError('NOT_FOUND', HOLD_NOT_FOUND)
  await takeConfirmQuota(db, { ip: opts.ip, holdId: opts.holdId })
  const doctors = await hospitalDoctors(db, hospital.id)
  const context = await hospitalContext(db, hospital.id)
  const limit = await patientLimit(db, hospital.id)
  const outcome = await withTenant(
    db,
    { hospitalId: hospital.id, userId: null },
    async (tx): Promise<Outcome> => {
      await pageSettings(tx)
      const [hold] = await tx
        .select({
          hold: bookingHolds,
          expired: sql<boolean>`${bookingHolds.expiresAt} <= now()`,
          serviceName: services.name,
          duration: services.durationMinutes,
        })
        .from(bookingHolds)
        .innerJoin(services, eq(services.id, bookingHolds.serviceId))
        .where(eq(bookingHolds.id, opts.holdId))
        .for('update', { of: bookingHolds })
      if (!hold) throw new AppError('NOT_FOUND', HOLD_NOT_FOUND)
      const h = hold.hold
      if (h.confirmedAt) throw new AppError('CONFLICT', HOLD_CONFIRMED)
      if (h.attempts >= BOOKING_CODE_TRIES) throw new AppError('CONFLICT', HOLD_SPENT)
      if (hold.expired) throw new AppError('CONFLICT', HOLD_EXPIRED)
      if (!bookingCodeMatches(opts.codeKey, h, opts.code)) {
        const [row] = await tx
          .update(bookingHolds)
          .set({ attempts: sql`${bookingHolds.attempts} + 1` })
          .where(eq(bookingHolds.id, h.id))
          .returning({ attempts: bookingHolds.attempts })
        return { kind: 'wrong', left: BOOKING_CODE_TRIES - (row?.attempts ?? BOOKING_CODE_TRIES) }
      }
      const patient = await patientForBooking(tx, {
        hospitalId: hospital.id,
        name: h.name,
        phone: h.phone,
        limit,
      })
      const doctorName = doctors.find((d) => d.id === h.doctorId)?.name ?? null
      const appointment = await createAppointmentInTx(tx, {
        hospitalId: hospital.id,
        userId: null,
        patientId: patient.id,
        doctorId: h.doctorId,
        serviceId: h.serviceId,
        serviceType: null,
        startsAt: h.startsAt,
        durationMinutes: Math.round((h.endsAt.getTime() - h.startsAt.getTime()) / 60_000),
        notes: 'Booked online',
        source: 'online',
        leadId: null,
        hospital: context,
        doctorName,
        now: opts.now,
      })
      await tx
        .update(bookingHolds)
        .set({ confirmedAt: sql`now()`, appointmentId: appointment.id })
        .where(eq(bookingHolds.id, h.id))
      const dateLabel = formatDate(h.startsAt, hospital.timeZone)
      const timeLabel = formatTime(h.startsAt, hospital.timeZone)
      const doctor = doctorLabel(doctorName)
      const sent = await queueBookingConfirmation(tx, {
        hospital,
        patientId: patient.id,
        hold: { id: h.id, name: h.name, phone: h.phone, channel: h.channel },
        content: bookingConfirmationText({
          hospitalName: hospital.name,
          dateLabel,
          timeLabel,
          serviceName: hold.serviceName,
          doctorName: doctor,
          clinicPhone: hospital.phone,
        }),
      })
      await recordAudit(tx, {
        hospitalId: hospital.id,
        actorUserId: null,
        action: 'booking.confirmed',
        entityType: 'booking_hold',
        entityId: h.id,
        summary: `Online booking confirmed: ${slotText(h.startsAt, h.endsAt, hospital.timeZone)} for ${patient.name}${patient.created ? ' (new patient)' : ''}${sent ? '' : '; no confirmation message could be sent'}`,
      })
      return {
        kind: 'booked',
        booked: {
          appointmentId: appointment.id,
          hospitalName: hospital.name,
          serviceName: hold.serviceName,
          doctorName: doctor,
          // What the visitor typed: a stored name is never shown on the public page.
          patientName: h.name,
          startsAt: h.startsAt.toISOString(),
          endsAt: h.endsAt.toISOString(),
          dateLabel,
          timeLabel,
          timeZone: hospital.timeZone,
          status: 'scheduled',
          clinicPhone: hospital.phone,
          confirmationSent: sent !== null,
        },
      }
    },
  )
  if (outcome.kind === 'booked') return outcome.booked
  const message = wrongCodeMessage(outcome.left)
  throw new AppError('VALIDATION', message, [{ path: 'code', message }])
}

/** A name as compared: Unicode-normalised, case and spaces ignored ('Priya  deshmukh'). */
export const comparableName = (name: string) =>
  name.normalize('NFKC').toLocaleLowerCase('en-IN').replace(/\s+/gu, '')

/**
 * The patient a booking is for: the oldest with this mobile and the same name (comparableName),
 * else a new patient (plan limit, number by trigger, audit with no actor), even when others
 * have this mobile.
 */
async function patientForBooking(
  tx: Tx,
  o: { hospitalId: string; name: string; phone: string; limit: number | null },
): Promise<{ id: string; name: string; created: boolean }> {
  const sameMobile = await tx
    .select({ id: patients.id, name: patients.name })
    .from(patients)
    .where(eq(patients.phone, o.phone))
    .orderBy(asc(patients.createdAt), asc(patients.id))
  const typed = comparableName(o.name)
  const existing = sameMobile.find((p) => comparableName(p.name) === typed)
  if (existing) return { ...existing, created: false }
  if (o.limit !== null) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${o.hospitalId}))`)
    const [current] = await tx.select({ n: count() }).from(patients)
    if ((current?.n ?? 0) >= o.limit) {
      throw new AppError(
        'CONFLICT',
        'This clinic cannot take new patients online right now. Please call the clinic to book.',
      )
    }
  }
  const [row] = await tx
    .insert(patients)
    .values({ hospitalId: o.hospitalId, name: o.name, phone: o.phone })
    .returning({ id: patients.id, name: patients.name, number: patients.patientNumber })
  if (!row) throw new AppError('INTERNAL', 'Patient was not saved')
  await recordAudit(tx, {
    hospitalId: o.hospitalId,
    actorUserId: null,
    action: 'patient.created',
    entityType: 'patient',
    entityId: row.id,
    summary: `Added patient ${row.name} (${row.number}) from an online booking`,
  })
  return { id: row.id, name: row.name, created: true }
}
