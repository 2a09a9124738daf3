import { and, desc, eq, sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { staffPhones } from '../../db/schema/calls'
import { leads } from '../../db/schema/leads'
import { consentRecords } from '../../db/schema/messaging'
import { patients } from '../../db/schema/patients'
import { AppError, notFound } from '../../http/app-error'
import { normalizeMobilePhone } from '../../../shared/phone'

/**
 * Who a call connects (issue 41): the staff member's own verified phone, rung first, and the
 * lead's or patient's number. Each refusal is written for the receptionist who reads it.
 */

export const NO_STAFF_PHONE =
  'Add your own mobile number under My phone and verify it with a test call first: calls ring your phone before the customer’s.'
export const STAFF_PHONE_UNVERIFIED =
  'Your mobile number is not verified yet: verify it with a test call under My phone first.'
export const OPTED_OUT_OF_CALLS = 'This lead asked not to be called (opted out of calls).'

/**
 * A call opt-out is a consent record with purpose 'calls' on the person's phone (any channel
 * column: consent channels do not name calls yet); the newest record for that purpose decides.
 */
export const CALLS_CONSENT_PURPOSE = 'calls'

export async function verifiedStaffPhone(tx: Tx, userId: string): Promise<string> {
  const [row] = await tx
    .select({ phone: staffPhones.phone, verifiedAt: staffPhones.phoneVerifiedAt })
    .from(staffPhones)
    .where(eq(staffPhones.userId, userId))
  if (!row) throw new AppError('BAD_REQUEST', NO_STAFF_PHONE)
  if (!row.verifiedAt) throw new AppError('BAD_REQUEST', STAFF_PHONE_UNVERIFIED)
  return row.phone
}

export interface CallContact {
  kind: 'lead' | 'patient'
  leadId: string | null
  patientId: string | null
  /** E.164, checked to be a number the clinic can call. */
  phone: string
}

function callablePhone(kind: 'lead' | 'patient', phone: string | null): string {
  const text = (phone ?? '').trim()
  if (!text) {
    throw new AppError('BAD_REQUEST', `This ${kind} has no phone number to call.`, [
      { path: 'phone', message: 'No phone number' },
    ])
  }
  const e164 = normalizeMobilePhone(text)
  if (!e164) {
    throw new AppError(
      'BAD_REQUEST',
      `This ${kind}’s phone number is not a valid mobile number: correct it before calling.`,
      [{ path: 'phone', message: 'Not a valid mobile number' }],
    )
  }
  return e164
}

export async function callContact(
  tx: Tx,
  subject: { leadId?: string | undefined; patientId?: string | undefined },
): Promise<CallContact> {
  if (subject.leadId) {
    const [lead] = await tx
      .select({ id: leads.id, phone: leads.phone })
      .from(leads)
      .where(eq(leads.id, subject.leadId))
    if (!lead) throw notFound('Lead')
    return {
      kind: 'lead',
      leadId: lead.id,
      patientId: null,
      phone: callablePhone('lead', lead.phone),
    }
  }
  const [patient] = await tx
    .select({ id: patients.id, phone: patients.phone })
    .from(patients)
    .where(eq(patients.id, subject.patientId ?? ''))
  if (!patient) throw notFound('Patient')
  return {
    kind: 'patient',
    leadId: null,
    patientId: patient.id,
    phone: callablePhone('patient', patient.phone),
  }
}

/** Whether the person behind `phone` opted out of calls (their newest 'calls' record). */
export async function optedOutOfCalls(tx: Tx, phone: string): Promise<boolean> {
  const [newest] = await tx
    .select({ action: consentRecords.action })
    .from(consentRecords)
    .where(
      and(
        eq(consentRecords.contactAddress, phone),
        eq(consentRecords.purpose, CALLS_CONSENT_PURPOSE),
      ),
    )
    .orderBy(desc(consentRecords.createdAt), desc(sql`ctid`))
    .limit(1)
  return newest?.action === 'opt_out'
}
