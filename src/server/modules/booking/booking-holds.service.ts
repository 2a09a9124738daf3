import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { formatDate, formatTime } from '../../../shared/dates'
import type { BookingHold, createBookingHoldInput } from '../../../shared/schemas/booking'
import { BOOKING_HOLD_MINUTES } from '../../../shared/scheduling'
import type { z } from 'zod'
import type { AppDb, Tx } from '../../db/client'
import { bookingHolds } from '../../db/schema/appointments'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { queueMessage } from '../messaging/send.service'
import {
  bookingCodeText,
  type CodeKey,
  hashBookingCode,
  maskedPhone,
  newBookingCode,
} from './booking-code'
import { takeHoldQuota } from './booking-limits'
import { slotProblem } from './booking-slots'
import {
  bookableService,
  type BookingHospital,
  busyTimes,
  hospitalBySlug,
  hospitalDoctors,
  offeredDoctors,
  pageSettings,
} from './booking.queries'
import { doctorsFor } from './booking.service'

/**
 * POST /api/public/booking/:slug/holds: holds a slot for BOOKING_HOLD_MINUTES and sends a
 * one-time code through the messaging outbox. Two visitors never hold one slot: holds of a
 * doctor are serialised by a transaction-scoped advisory lock on (hospital, doctor), and the
 * check for active appointments and live holds runs under it.
 */
type HoldInput = z.output<typeof createBookingHoldInput>

const MINUTE = 60_000

/** "10:00 AM–10:30 AM on Nov 26, 2026" in the hospital's zone. */
export function slotText(start: Date, end: Date, timeZone: string): string {
  return `${formatTime(start, timeZone)}–${formatTime(end, timeZone)} on ${formatDate(start, timeZone)}`
}

/** Takes the doctor's booking lock for the rest of the transaction (pooler-safe). */
export async function lockDoctor(tx: Tx, hospitalId: string, doctorId: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext(${hospitalId}), hashtext(${doctorId}))`,
  )
}

/** The first of `candidates` (locked in id order, so no two holds deadlock) free for the slot. */
async function freeDoctor(
  tx: Tx,
  hospitalId: string,
  candidates: readonly string[],
  slot: { start: Date; end: Date },
): Promise<string | null> {
  for (const id of candidates) {
    await lockDoctor(tx, hospitalId, id)
    const busy = await busyTimes(tx, [id], slot)
    if (!busy.get(id)?.length) return id
  }
  return null
}

/** The outbox's refusals, said for a visitor. */
function visitorError(error: unknown, channel: HoldInput['channel']): unknown {
  if (!(error instanceof AppError)) return error
  if (error.code === 'OPTED_OUT') {
    const other = channel === 'sms' ? 'WhatsApp' : 'SMS'
    const label = channel === 'sms' ? 'SMS' : 'WhatsApp'
    return new AppError(
      'OPTED_OUT',
      `This mobile number has opted out of ${label} messages from this clinic. Choose ${other}, or call the clinic.`,
    )
  }
  if (error.code === 'OUTSIDE_WINDOW') {
    return new AppError(
      'OUTSIDE_WINDOW',
      'This clinic cannot send codes by WhatsApp yet. Please choose SMS.',
    )
  }
  return error
}

export async function createBookingHold(opts: {
  db: AppDb
  codeKey: CodeKey
  slug: string
  input: HoldInput
  ip: string
  now?: Date
}): Promise<BookingHold> {
  const { db, input } = opts
  const now = opts.now ?? new Date()
  const hospital = await hospitalBySlug(db, opts.slug)
  const allDoctors = await hospitalDoctors(db, hospital.id)
  const giveBack = await takeHoldQuota(db, { ip: opts.ip, phone: input.phone })
  try {
    return await withTenant(db, { hospitalId: hospital.id, userId: null }, (tx) =>
      holdInTx(tx, { ...opts, hospital, allDoctors, now }),
    )
  } catch (error) {
    await giveBack()
    throw visitorError(error, input.channel)
  }
}

async function holdInTx(
  tx: Tx,
  o: {
    codeKey: CodeKey
    input: HoldInput
    hospital: BookingHospital
    allDoctors: { id: string; name: string }[]
    now: Date
  },
): Promise<BookingHold> {
  const { input, hospital } = o
  const settings = await pageSettings(tx)
  const service = await bookableService(tx, input.serviceId)
  const offered = offeredDoctors(o.allDoctors, settings.doctorIds)
  const candidates = doctorsFor(offered, input.doctorId)
  const start = new Date(input.startsAt)
  const problem = slotProblem({
    start,
    timeZone: hospital.timeZone,
    hours: hospital.workingHours,
    duration: service.durationMinutes,
    now: o.now,
  })
  if (problem) throw new AppError('VALIDATION', problem, [{ path: 'startsAt', message: problem }])
  const slot = { start, end: new Date(start.getTime() + service.durationMinutes * MINUTE) }
  const doctorId = await freeDoctor(tx, hospital.id, candidates, slot)
  if (!doctorId) {
    throw new AppError(
      'CONFLICT',
      `${slotText(slot.start, slot.end, hospital.timeZone)} is no longer free. Please choose another time.`,
    )
  }
  const id = randomUUID()
  const code = newBookingCode()
  const [hold] = await tx
    .insert(bookingHolds)
    .values({
      hospitalId: hospital.id,
      id,
      doctorId,
      serviceId: service.id,
      startsAt: slot.start,
      endsAt: slot.end,
      name: input.name,
      phone: input.phone,
      channel: input.channel,
      codeHash: hashBookingCode(o.codeKey, { hospitalId: hospital.id, id }, code),
      expiresAt: sql`now() + make_interval(mins => ${BOOKING_HOLD_MINUTES})`,
    })
    .returning({ expiresAt: bookingHolds.expiresAt })
  if (!hold) throw new AppError('INTERNAL', 'The hold was not saved')
  await queueMessage(tx, {
    hospitalId: hospital.id,
    userId: null,
    channel: input.channel,
    content: bookingCodeText(code, hospital.name, BOOKING_HOLD_MINUTES),
    to: { name: input.name, address: input.phone, bookingHoldId: id },
    hospital: { name: hospital.name, timeZone: hospital.timeZone },
    metadata: { purpose: 'booking_code' },
  })
  const doctor = o.allDoctors.find((d) => d.id === doctorId)
  await recordAudit(tx, {
    hospitalId: hospital.id,
    actorUserId: null,
    action: 'booking.held',
    entityType: 'booking_hold',
    entityId: id,
    summary: `Online booking: held ${slotText(slot.start, slot.end, hospital.timeZone)} with ${doctor?.name ?? 'a doctor'} for ${input.name}`,
  })
  return {
    holdId: id,
    expiresAt: hold.expiresAt.toISOString(),
    sentTo: maskedPhone(input.phone),
    channel: input.channel,
  }
}
