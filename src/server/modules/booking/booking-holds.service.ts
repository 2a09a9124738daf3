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
import { optedOut } from '../messaging/consent'
import { hospitalSending } from '../messaging/rules'
import { queueMessage } from '../messaging/send.service'
import {
  bookingCodeText,
  CODE_MASK,
  type CodeKey,
  deriveBookingCode,
  hashBookingCode,
  maskedPhone,
  mobileQuotaKey,
  unmatchableCodeHash,
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
 *
 * The answer tells nothing about the mobile number (issue 39, item 9): for a number that does
 * not receive this clinic's messages on the channel (opted out, or erased: erasure withdraws
 * every consent) the slot is held and answered exactly as for any other, but no code is sent and
 * the hold keeps neither the name nor the number (it can never be confirmed). Every refusal that
 * could depend on the number is decided from the hospital alone, before that.
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

/**
 * A hold is answered no sooner than this after it was asked for: queueing the code is work that
 * a number which receives none skips, and the difference must not be measurable (PostgreSQL:
 * ~10 ms, PGlite: ~60 ms, on a loaded 2-core machine; a hold takes 30-200 ms in all).
 */
export const HOLD_ANSWER_MS = 250

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export const NO_WHATSAPP_CODES = 'This clinic cannot send codes by WhatsApp yet. Please choose SMS.'
export const CODE_NOT_SENT =
  'We could not send a code just now. Please try again in a minute, or call the clinic.'

/**
 * The outbox's refusals, said for a visitor. An opt-out recorded between the hold's own check
 * and the send (a race) gets the same words as any failure to send: never "opted out".
 */
function visitorError(error: unknown): unknown {
  if (!(error instanceof AppError)) return error
  if (error.code === 'OUTSIDE_WINDOW') return new AppError('OUTSIDE_WINDOW', NO_WHATSAPP_CODES)
  if (error.code === 'OPTED_OUT') return new AppError('CONFLICT', CODE_NOT_SENT)
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
  const began = performance.now()
  const now = opts.now ?? new Date()
  const hospital = await hospitalBySlug(db, opts.slug)
  const allDoctors = await hospitalDoctors(db, hospital.id)
  await takeHoldQuota(db, {
    ip: opts.ip,
    mobileKey: mobileQuotaKey(opts.codeKey, input.phone),
    hospitalId: hospital.id,
  })
  let hold: BookingHold
  try {
    hold = await withTenant(db, { hospitalId: hospital.id, userId: null }, (tx) =>
      holdInTx(tx, { ...opts, hospital, allDoctors, now }),
    )
  } catch (error) {
    throw visitorError(error)
  }
  await sleep(HOLD_ANSWER_MS - (performance.now() - began))
  return hold
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
  // A WhatsApp code needs the sandbox: a real provider would take it only from a number that
  // wrote to the clinic in the last 24 hours, and saying so would tell who did.
  if (input.channel === 'whatsapp') {
    const sending = await hospitalSending(tx, hospital)
    if (sending.providers.whatsapp !== 'sandbox') {
      throw new AppError('OUTSIDE_WINDOW', NO_WHATSAPP_CODES)
    }
  }
  const doctorId = await freeDoctor(tx, hospital.id, candidates, slot)
  if (!doctorId) {
    throw new AppError(
      'CONFLICT',
      `${slotText(slot.start, slot.end, hospital.timeZone)} is no longer free. Please choose another time.`,
    )
  }
  const id = randomUUID()
  const ref = { hospitalId: hospital.id, id }
  const receives = !(await optedOut(tx, input.channel, [input.phone])).has(input.phone)
  const derived = receives ? deriveBookingCode(ref) : null
  if (receives && !derived) throw new AppError('INTERNAL', 'The booking code key is missing')
  const [hold] = await tx
    .insert(bookingHolds)
    .values({
      ...ref,
      doctorId,
      serviceId: service.id,
      startsAt: slot.start,
      endsAt: slot.end,
      // Nothing personal is kept for a number that receives no code.
      name: derived ? input.name : '',
      phone: derived ? input.phone : '',
      channel: input.channel,
      codeHash: derived
        ? hashBookingCode(o.codeKey, ref, derived.code)
        : unmatchableCodeHash(o.codeKey, ref),
      expiresAt: sql`now() + make_interval(mins => ${BOOKING_HOLD_MINUTES})`,
    })
    .returning({ expiresAt: bookingHolds.expiresAt })
  if (!hold) throw new AppError('INTERNAL', 'The hold was not saved')
  if (derived) {
    await queueMessage(tx, {
      hospitalId: hospital.id,
      userId: null,
      channel: input.channel,
      // Stored masked: the send job puts the code back in (revealBookingCode).
      content: bookingCodeText(CODE_MASK, hospital.name, BOOKING_HOLD_MINUTES),
      to: { name: input.name, address: input.phone, bookingHoldId: id },
      hospital: { name: hospital.name, timeZone: hospital.timeZone },
      metadata: { purpose: 'booking_code', codeKeyId: derived.keyId },
    })
  }
  const doctor = o.allDoctors.find((d) => d.id === doctorId)
  const held = `held ${slotText(slot.start, slot.end, hospital.timeZone)} with ${doctor?.name ?? 'a doctor'}`
  await recordAudit(tx, {
    hospitalId: hospital.id,
    actorUserId: null,
    action: 'booking.held',
    entityType: 'booking_hold',
    entityId: id,
    summary: derived
      ? `Online booking: ${held} for ${input.name}`
      : `Online booking: ${held}; no code sent (the number does not take ${input.channel === 'sms' ? 'SMS' : 'WhatsApp'} messages from this clinic)`,
  })
  return {
    holdId: id,
    expiresAt: hold.expiresAt.toISOString(),
    sentTo: maskedPhone(input.phone),
    channel: input.channel,
  }
}
