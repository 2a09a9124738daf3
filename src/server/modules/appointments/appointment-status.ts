import { eq } from 'drizzle-orm'
import type { Appointment } from '../../../shared/schemas/appointments'
import { type AppointmentStatus, canMoveAppointment } from '../../../shared/scheduling'
import { appointments } from '../../db/schema/appointments'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { findAppointment, withDoctorNames } from './appointment-rows'
import type { AppointmentOptions } from './appointments.service'
import { cancelReminders } from './reminders'

const label: Record<AppointmentStatus, string> = {
  scheduled: 'scheduled',
  confirmed: 'confirmed',
  completed: 'completed',
  cancelled: 'cancelled',
  'no-show': 'no-show',
}

/** Moves that record what happened at the visit: only once its start has passed (issue 40). */
const startedOnly = new Set<AppointmentStatus>(['completed', 'no-show'])

export const REASON_ONLY_FOR_CANCEL = 'A reason can only be given when cancelling'

/** The 409 for a move the state machine forbids, naming both states. */
export function invalidTransition(from: AppointmentStatus, to: AppointmentStatus, why = '') {
  return new AppError(
    'INVALID_TRANSITION',
    `Cannot change an appointment from ${label[from]} to ${label[to]}${why}.`,
  )
}

/**
 * PATCH /api/appointments/:id with a status: the spec's transitions (shared/scheduling.ts),
 * `completed` and `no-show` only once the start has passed, `cancelled` with an optional reason. A closed
 * appointment's pending reminders are cancelled. Row-locked, so two concurrent changes are
 * serialised and the second is judged against the first's result. Audited.
 */
export async function changeAppointmentStatus(
  opts: AppointmentOptions & {
    id: string
    status: AppointmentStatus
    reason: string | null
    now?: Date | undefined
  },
): Promise<Appointment> {
  if (opts.reason && opts.status !== 'cancelled') {
    throw new AppError('VALIDATION', `Invalid input: reason: ${REASON_ONLY_FOR_CANCEL}`, [
      { path: 'reason', message: REASON_ONLY_FOR_CANCEL },
    ])
  }
  const now = opts.now ?? new Date()
  const row = await withTenant(opts.db, opts, async (tx) => {
    const current = await findAppointment(tx, opts.id, true)
    if (!canMoveAppointment(current.status, opts.status))
      throw invalidTransition(current.status, opts.status)
    if (startedOnly.has(opts.status) && current.startsAt.getTime() > now.getTime())
      throw invalidTransition(current.status, opts.status, ' before its start time')
    const [updated] = await tx
      .update(appointments)
      .set({
        status: opts.status,
        cancelReason: opts.status === 'cancelled' ? opts.reason : current.cancelReason,
        statusChangedAt: now,
        updatedAt: now,
      })
      .where(eq(appointments.id, opts.id))
      .returning({ updatedAt: appointments.updatedAt })
    if (!updated) throw new Error('appointment was not updated')
    if (opts.status !== 'confirmed') await cancelReminders(tx, opts.id)
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: `appointment.${opts.status === 'no-show' ? 'no_show' : opts.status}`,
      entityType: 'appointment',
      entityId: opts.id,
      summary: `Appointment of ${current.patientName} changed from ${current.status} to ${opts.status}${opts.reason ? `: ${opts.reason}` : ''}`,
    })
    return {
      ...current,
      status: opts.status,
      cancelReason: opts.status === 'cancelled' ? opts.reason : current.cancelReason,
      updatedAt: updated.updatedAt,
    }
  })
  const [appointment] = await withDoctorNames(opts.db, opts.hospitalId, [row])
  if (!appointment) throw new Error('appointment missing')
  return appointment
}
