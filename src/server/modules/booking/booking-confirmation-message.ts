import { sql } from 'drizzle-orm'
import { formatPhone } from '../../../shared/phone-format'
import type { bookingCodeChannels } from '../../../shared/scheduling'
import type { Tx } from '../../db/client'
import { AppError } from '../../http/app-error'
import { queueMessage } from '../messaging/send.service'

/** The confirmation's words: what, when, with whom, and the number to call to change it. */
export function bookingConfirmationText(o: {
  hospitalName: string
  dateLabel: string
  timeLabel: string
  serviceName: string
  doctorName: string
  clinicPhone: string | null
}): string {
  const call = o.clinicPhone
    ? ` To change or cancel it, call ${formatPhone(o.clinicPhone)}.`
    : ' To change or cancel it, please call the clinic.'
  return `Your appointment at ${o.hospitalName} is booked: ${o.dateLabel} at ${o.timeLabel}, ${o.serviceName} with ${o.doctorName}.${call}`
}

/** How the confirmation went out: to the patient's record, to the number alone, or not at all. */
export type ConfirmationQueued = 'patient' | 'recipient' | null

/** Runs a queueMessage in a savepoint: a refusal leaves the booking's transaction usable. */
async function attempt(tx: Tx, queue: () => Promise<unknown>): Promise<AppError | null> {
  await tx.execute(sql`savepoint booking_confirmation`)
  try {
    await queue()
    await tx.execute(sql`release savepoint booking_confirmation`)
    return null
  } catch (error) {
    await tx.execute(sql`rollback to savepoint booking_confirmation`)
    if (error instanceof AppError) return error
    throw error
  }
}

/**
 * Issue 40, item 10: after an online booking, a confirmation to the patient through the
 * messaging outbox (queueMessage), in the booking's transaction, on the channel the visitor
 * chose for the code. It goes on the patient's record (Communication History); where the rules
 * refuse that (a WhatsApp text outside the 24-hour window), it goes as the code did, a
 * transactional message to the number the code just proved. Any other refusal (opted out, no
 * provider) sends nothing: the booking stands and the audit says so.
 */
export async function queueBookingConfirmation(
  tx: Tx,
  o: {
    hospital: { id: string; name: string; timeZone: string }
    patientId: string
    hold: { id: string; name: string; phone: string; channel: (typeof bookingCodeChannels)[number] }
    content: string
  },
): Promise<ConfirmationQueued> {
  const common = {
    hospitalId: o.hospital.id,
    userId: null,
    channel: o.hold.channel,
    content: o.content,
    hospital: { name: o.hospital.name, timeZone: o.hospital.timeZone },
    metadata: { purpose: 'booking_confirmation' },
  }
  const first = await attempt(tx, () => queueMessage(tx, { ...common, patientId: o.patientId }))
  if (!first) return 'patient'
  if (first.code !== 'OUTSIDE_WINDOW') return null
  const second = await attempt(tx, () =>
    queueMessage(tx, {
      ...common,
      to: { name: o.hold.name, address: o.hold.phone, bookingHoldId: o.hold.id },
    }),
  )
  return second ? null : 'recipient'
}
