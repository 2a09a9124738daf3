import { and, eq, inArray, or, type SQL } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { appointments, bookingHolds } from '../../db/schema/appointments'
import { invoices } from '../../db/schema/billing'
import { communications, leads } from '../../db/schema/leads'
import { consentRecords } from '../../db/schema/messaging'
import { patientColumns, patients } from '../../db/schema/patients'
import { notFound } from '../../http/app-error'

/*
 * What the hospital holds about one patient (DPDP data rights): the patient's row, the leads
 * converted into them, and how to find the rows that name them. Shared by export and erase.
 */

export type PatientRow = Awaited<ReturnType<typeof lockPatient>>

/** The patient in the transaction's hospital (404 for another hospital's id). */
export async function lockPatient(tx: Tx, id: string, lock = false) {
  const query = tx.select(patientColumns).from(patients).where(eq(patients.id, id))
  const [row] = lock ? await query.for('update') : await query
  if (!row) throw notFound('Patient')
  return row
}

/** The patient's leads: those converted into this patient. */
export async function linkedLeadIds(tx: Tx, patientId: string): Promise<string[]> {
  const rows = await tx.select({ id: leads.id }).from(leads).where(eq(leads.patientId, patientId))
  return rows.map((r) => r.id)
}

/** The booking holds that became the patient's appointments (they carry a name and phone). */
export async function holdIdsOf(tx: Tx, appointmentIds: readonly string[]): Promise<string[]> {
  if (!appointmentIds.length) return []
  const rows = await tx
    .select({ id: bookingHolds.id })
    .from(bookingHolds)
    .where(inArray(bookingHolds.appointmentId, [...appointmentIds]))
  return rows.map((r) => r.id)
}

export async function appointmentIdsOf(tx: Tx, patientId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: appointments.id })
    .from(appointments)
    .where(eq(appointments.patientId, patientId))
  return rows.map((r) => r.id)
}

export async function invoiceIdsOf(tx: Tx, patientId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(eq(invoices.patientId, patientId))
  return rows.map((r) => r.id)
}

/** The communications about the patient, their leads, or their bookings' code messages. */
export function communicationsOf(
  patientId: string,
  leadIds: readonly string[],
  holdIds: readonly string[],
): SQL {
  const match: SQL[] = [eq(communications.patientId, patientId)]
  if (leadIds.length) match.push(inArray(communications.leadId, [...leadIds]))
  if (holdIds.length) match.push(inArray(communications.bookingHoldId, [...holdIds]))
  return or(...match) as SQL
}

/** A person's messaging addresses: E.164 phones (WhatsApp, SMS) and lower-case emails. */
export interface Addresses {
  phones: string[]
  emails: string[]
}

export async function addressesOf(
  tx: Tx,
  patient: { phone: string; email: string | null },
  leadIds: readonly string[],
): Promise<Addresses> {
  const phones = new Set<string>()
  const emails = new Set<string>()
  const add = (phone: string | null, email: string | null) => {
    if (phone) phones.add(phone)
    if (email?.trim()) emails.add(email.trim().toLowerCase())
  }
  add(patient.phone, patient.email)
  if (leadIds.length) {
    const rows = await tx
      .select({ phone: leads.phone, email: leads.email })
      .from(leads)
      .where(inArray(leads.id, [...leadIds]))
    for (const r of rows) add(r.phone, r.email)
  }
  return { phones: [...phones], emails: [...emails] }
}

/** Consent records on those addresses (phones: WhatsApp and SMS; emails: email). */
export function consentsOf(addresses: Addresses): SQL | null {
  const match: SQL[] = []
  if (addresses.phones.length) {
    match.push(
      and(
        inArray(consentRecords.channel, ['whatsapp', 'sms']),
        inArray(consentRecords.contactAddress, addresses.phones),
      ) as SQL,
    )
  }
  if (addresses.emails.length) {
    match.push(
      and(
        eq(consentRecords.channel, 'email'),
        inArray(consentRecords.contactAddress, addresses.emails),
      ) as SQL,
    )
  }
  return match.length ? (or(...match) as SQL) : null
}
