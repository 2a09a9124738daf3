import { eq } from 'drizzle-orm'
import { normalizeMobilePhone } from '../../../shared/phone'
import type { ConvertLeadResult } from '../../../shared/schemas/leads'
import { leads } from '../../db/schema/leads'
import { patients } from '../../db/schema/patients'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { insertPatient, patientLimit } from '../patients/patients.service'
import { insertCommunication, leadColumns, type TenantOptions, withNames } from './leads.rows'
import { findLead } from './leads.service'

export const NOT_A_MOBILE =
  "This lead's phone is not a mobile number. Add the person's mobile number to the lead first."

/**
 * POST /api/leads/:id/convert: in one transaction the patient is created from the lead's
 * name, phone and email (through the patients service: plan limit, patient number, audit),
 * the lead becomes converted and points at the patient, and a system note says so. The
 * lead's row lock makes a second conversion, also a concurrent one, a 409.
 */
export async function convertLead(
  opts: TenantOptions & { id: string },
): Promise<ConvertLeadResult> {
  const limit = await patientLimit(opts.db, opts.hospitalId)
  const { row, patient } = await withTenant(opts.db, opts, async (tx) => {
    const lead = await findLead(tx, opts.id, true)
    if (lead.status === 'converted' || lead.patientId) {
      const [existing] = lead.patientId
        ? await tx
            .select({ number: patients.patientNumber })
            .from(patients)
            .where(eq(patients.id, lead.patientId))
        : []
      throw new AppError(
        'CONFLICT',
        existing
          ? `This lead was already converted to patient ${existing.number}`
          : 'This lead was already converted',
      )
    }
    // Patients are called and messaged: an Indian number must be a mobile (shared/phone.ts).
    const mobile = normalizeMobilePhone(lead.phone)
    if (!mobile) {
      throw new AppError('VALIDATION', NOT_A_MOBILE, [{ path: 'phone', message: NOT_A_MOBILE }])
    }
    const patient = await insertPatient(tx, {
      ...opts,
      limit,
      values: { name: lead.name, phone: mobile, email: lead.email },
    })
    const [converted] = await tx
      .update(leads)
      .set({ status: 'converted', patientId: patient.id, updatedAt: new Date() })
      .where(eq(leads.id, lead.id))
      .returning(leadColumns)
    if (!converted) throw new Error('converted lead was not saved')
    await insertCommunication(tx, {
      hospitalId: opts.hospitalId,
      leadId: lead.id,
      type: 'system',
      direction: 'outbound',
      content: `Converted to patient ${patient.patientNumber}`,
      status: 'logged',
      metadata: { patientId: patient.id, patientNumber: patient.patientNumber },
      createdByUserId: opts.userId,
    })
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'lead.converted',
      entityType: 'lead',
      entityId: lead.id,
      summary: `Converted lead ${lead.name} to patient ${patient.patientNumber}`,
    })
    return { row: converted, patient }
  })
  const [lead] = await withNames(opts, [row])
  if (!lead) throw new Error('lead missing')
  return {
    lead,
    patient: { id: patient.id, name: patient.name, patientNumber: patient.patientNumber },
  }
}
