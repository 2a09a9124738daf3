import { and, asc, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm'
import { formatDate, formatTime } from '../../../shared/dates'
import { slotHoldingStatuses } from '../../../shared/scheduling'
import type { Tx } from '../../db/client'
import { appointments } from '../../db/schema/appointments'
import { AppError } from '../../http/app-error'
import { doctorLabel } from './context'

/** The exclusion constraint that keeps a doctor from two overlapping active appointments. */
export const NO_OVERLAP_CONSTRAINT = 'appointments_no_overlap'

/** True for an exclusion violation (23P01) anywhere in the error's cause chain. */
export function isExclusionViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23P01') return true
  }
  return false
}

/**
 * The 409 for a slot the doctor already has taken, naming the clashing appointment's slot in
 * the hospital's zone: 'Dr. Ananya Rao already has an appointment from 10:00 AM to 10:30 AM on
 * Nov 26, 2026.'
 */
export function clashError(
  doctorName: string | null | undefined,
  clash: { startsAt: Date; endsAt: Date } | undefined,
  timeZone: string,
): AppError {
  const who = doctorLabel(doctorName)
  const message = clash
    ? `${who} already has an appointment from ${formatTime(clash.startsAt, timeZone)} to ${formatTime(clash.endsAt, timeZone)} on ${formatDate(clash.startsAt, timeZone)}.`
    : `${who} already has an appointment at this time.`
  return new AppError('APPOINTMENT_CLASH', message, [{ path: 'time', message }])
}

/**
 * The doctor's first appointment holding time (slotHoldingStatuses: completed and no-show too)
 * overlapping [startsAt, endsAt), other than `exceptId`.
 */
export async function findClash(
  tx: Tx,
  slot: { doctorId: string; startsAt: Date; endsAt: Date; exceptId?: string | undefined },
): Promise<{ startsAt: Date; endsAt: Date } | undefined> {
  const [row] = await tx
    .select({ startsAt: appointments.startsAt, endsAt: appointments.endsAt })
    .from(appointments)
    .where(
      and(
        eq(appointments.doctorId, slot.doctorId),
        inArray(appointments.status, [...slotHoldingStatuses]),
        lt(appointments.startsAt, slot.endsAt),
        gt(appointments.endsAt, slot.startsAt),
        slot.exceptId ? ne(appointments.id, slot.exceptId) : undefined,
      ),
    )
    .orderBy(asc(appointments.startsAt))
    .limit(1)
  return row
}

/**
 * Runs a write that may violate appointments_no_overlap inside a savepoint, so that on a
 * clash the transaction is still usable: it is rolled back to the savepoint, the clashing
 * appointment (committed by the winner, which the constraint waited for) is read, and the 409
 * names its slot. A completed or no-show appointment in the slot is refused first (findClash):
 * the constraint covers open appointments only, and a closed one never reopens, so this check
 * cannot be raced (an appointment only leaves slotHoldingStatuses by being cancelled).
 */
export async function withoutClash<T>(
  tx: Tx,
  slot: { doctorId: string; startsAt: Date; endsAt: Date; exceptId?: string | undefined },
  clash: { doctorName: string | null | undefined; timeZone: string },
  write: () => Promise<T>,
): Promise<T> {
  const held = await findClash(tx, slot)
  if (held) throw clashError(clash.doctorName, held, clash.timeZone)
  // One name is enough: PostgreSQL rolls back to (and releases) the latest savepoint of a name.
  await tx.execute(sql`savepoint appointment_write`)
  try {
    const result = await write()
    await tx.execute(sql`release savepoint appointment_write`)
    return result
  } catch (error) {
    await tx.execute(sql`rollback to savepoint appointment_write`)
    if (!isExclusionViolation(error)) throw error
    throw clashError(clash.doctorName, await findClash(tx, slot), clash.timeZone)
  }
}
