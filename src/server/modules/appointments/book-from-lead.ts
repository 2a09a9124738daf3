import { asc, eq } from 'drizzle-orm'
import { normalizeMobilePhone } from '../../../shared/phone'
import type { Tx } from '../../db/client'
import { leads } from '../../db/schema/leads'
import { patients } from '../../db/schema/patients'
import { AppError } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { insertCommunication } from '../leads/leads.rows'
import { findLead } from '../leads/leads.service'
import { insertPatient } from '../patients/patients.service'

export const LEAD_NOT_A_MOBILE =
  "This lead's phone is not a mobile number. Add the person's mobile number to the lead first."

/**
 * The patient an appointment booked from a lead is for, in the booking's tenant transaction:
 * the lead's converted patient; else a patient with the lead's mobile (the lead is linked to
 * them and marked converted); else a new patient made from the lead's name, mobile and email
 * (through the patients service: plan limit, number, audit), the lead marked converted, as
 * POST /api/leads/:id/convert does. The lead's row lock serialises two bookings of one lead.
 * 404 for another hospital's lead.
 */
export async function patientFromLead(
  tx: Tx,
  opts: {
    hospitalId: string
    userId: string
    impersonatorUserId?: string | null | undefined
    leadId: string
    /** The plan's patient limit (patientLimit, read before the transaction). */
    limit: number | null
  },
): Promise<string> {
  const lead = await findLead(tx, opts.leadId, true)
  if (lead.patientId) {
    const [linked] = await tx
      .select({ id: patients.id })
      .from(patients)
      .where(eq(patients.id, lead.patientId))
    if (linked) return linked.id
  }
  const mobile = normalizeMobilePhone(lead.phone)
  if (!mobile) {
    throw new AppError('VALIDATION', LEAD_NOT_A_MOBILE, [
      { path: 'leadId', message: LEAD_NOT_A_MOBILE },
    ])
  }
  const [existing] = await tx
    .select({ id: patients.id, name: patients.name, number: patients.patientNumber })
    .from(patients)
    .where(eq(patients.phone, mobile))
    .orderBy(asc(patients.createdAt))
    .limit(1)
  const patient: { id: string; name: string; number: string } = existing ?? {
    ...(await insertPatient(tx, {
      hospitalId: opts.hospitalId,
      userId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      limit: opts.limit,
      values: { name: lead.name, phone: mobile, email: lead.email },
    }).then((p) => ({ id: p.id, name: p.name, number: p.patientNumber }))),
  }
  await tx
    .update(leads)
    .set({ status: 'converted', patientId: patient.id, updatedAt: new Date() })
    .where(eq(leads.id, lead.id))
  const how = existing ? 'Linked to existing patient' : 'Converted to patient'
  await insertCommunication(tx, {
    hospitalId: opts.hospitalId,
    leadId: lead.id,
    type: 'system',
    direction: 'outbound',
    content: `${how} ${patient.number} when booking an appointment`,
    status: 'logged',
    metadata: { patientId: patient.id, patientNumber: patient.number },
    createdByUserId: opts.userId,
  })
  await recordAudit(tx, {
    hospitalId: opts.hospitalId,
    actorUserId: opts.userId,
    impersonatorUserId: opts.impersonatorUserId,
    action: 'lead.converted',
    entityType: 'lead',
    entityId: lead.id,
    summary: `${how} ${patient.number} (${patient.name}) from lead ${lead.name} when booking an appointment`,
  })
  return patient.id
}
