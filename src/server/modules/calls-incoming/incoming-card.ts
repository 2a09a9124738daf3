import { and, asc, eq, gt, inArray } from 'drizzle-orm'
import type { IncomingCallCard } from '../../../shared/schemas/calls-incoming'
import { formatPhone } from '../../../shared/phone'
import type { AppDb } from '../../db/client'
import { appointments } from '../../db/schema/appointments'
import { calls, incomingCalls } from '../../db/schema/calls'
import { leads } from '../../db/schema/leads'
import { patients } from '../../db/schema/patients'
import { withTenant } from '../../db/tenant'
import { notFound } from '../../http/app-error'

/**
 * GET /api/calls/incoming/:id (issue 41): what the pop-up shows of an incoming call, "Sunita
 * Kulkarni, patient SMH-000123, next appointment 3 Dec": the caller's name (the patient's, else
 * the lead's), the patient number when there is one or "New lead" when this call created the
 * lead, and the patient's next scheduled or confirmed appointment. Another hospital's call, or
 * an outbound one, is 404.
 */
export async function getIncomingCard(opts: {
  db: AppDb
  hospitalId: string
  userId: string
  id: string
  now?: Date | undefined
}): Promise<IncomingCallCard> {
  return withTenant(opts.db, opts, async (tx) => {
    const [row] = await tx
      .select({
        id: calls.id,
        status: calls.status,
        startedAt: calls.startedAt,
        leadId: calls.leadId,
        patientId: calls.patientId,
        phone: calls.customerPhone,
        provider: calls.provider,
        ringUserIds: incomingCalls.ringUserIds,
        newLead: incomingCalls.newLead,
      })
      .from(calls)
      .innerJoin(incomingCalls, eq(incomingCalls.callId, calls.id))
      .where(and(eq(calls.id, opts.id), eq(calls.direction, 'inbound')))
    if (!row) throw notFound('Call')
    const [lead] = row.leadId
      ? await tx
          .select({ name: leads.name, patientId: leads.patientId })
          .from(leads)
          .where(eq(leads.id, row.leadId))
      : []
    const patientId = row.patientId ?? lead?.patientId ?? null
    const [patient] = patientId
      ? await tx
          .select({ name: patients.name, number: patients.patientNumber })
          .from(patients)
          .where(eq(patients.id, patientId))
      : []
    const [next] = patientId
      ? await tx
          .select({ startsAt: appointments.startsAt })
          .from(appointments)
          .where(
            and(
              eq(appointments.patientId, patientId),
              gt(appointments.startsAt, opts.now ?? new Date()),
              inArray(appointments.status, ['scheduled', 'confirmed']),
            ),
          )
          .orderBy(asc(appointments.startsAt))
          .limit(1)
      : []
    return {
      id: row.id,
      status: row.status,
      startedAt: row.startedAt.toISOString(),
      name: patient?.name ?? lead?.name ?? (row.phone ? formatPhone(row.phone) : 'Unknown caller'),
      phone: row.phone ? formatPhone(row.phone) : '',
      leadId: row.leadId,
      patientId: patient ? patientId : null,
      patientNumber: patient?.number ?? null,
      newLead: row.newLead,
      nextAppointmentAt: next ? next.startsAt.toISOString() : null,
      ringUserIds: row.ringUserIds,
      sandbox: row.provider === 'sandbox',
    }
  })
}
