import { and, eq, inArray, or, sql } from 'drizzle-orm'
import type { MessageChannel } from '../../../shared/messaging'
import {
  ALREADY_ERASED_MESSAGE,
  ERASE_NAME_MESSAGE,
  ERASED_CONTENT,
  ERASED_NAME,
  type EraseCounts,
  type EraseResult,
} from '../../../shared/schemas/data-rights'
import type { Tx } from '../../db/client'
import { appointments, bookingHolds } from '../../db/schema/appointments'
import { invoices } from '../../db/schema/billing'
import { communications, leads } from '../../db/schema/leads'
import { reminders } from '../../db/schema/messaging'
import { patients } from '../../db/schema/patients'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { optedOut, recordConsent } from '../messaging/consent'
import type { TenantOptions } from '../patients/patients.service'
import {
  type Addresses,
  addressesOf,
  appointmentIdsOf,
  communicationsOf,
  holdIdsOf,
  linkedLeadIds,
  lockPatient,
} from './patient-records'
import { eraseActivityNames } from '../live-monitoring/erase-names'

/** Names compared as a person types them: spaces collapsed, case ignored. */
const normalised = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase()

/** Withdraws every messaging consent on the addresses not already withdrawn (a kept record). */
async function withdrawConsents(tx: Tx, opts: TenantOptions, addresses: Addresses) {
  const pairs: [MessageChannel, string[]][] = [
    ['whatsapp', addresses.phones],
    ['sms', addresses.phones],
    ['email', addresses.emails],
  ]
  let withdrawn = 0
  for (const [channel, list] of pairs) {
    const out = await optedOut(tx, channel, list)
    for (const address of list.filter((a) => !out.has(a))) {
      await recordConsent(tx, {
        hospitalId: opts.hospitalId,
        channel,
        contactAddress: address,
        action: 'opt_out',
        method: 'staff',
        purpose: 'messaging',
        recordedByUserId: opts.userId,
      })
      withdrawn++
    }
  }
  return withdrawn
}

const countOf = async (rows: Promise<unknown[]>) => (await rows).length

/** Clears every personal field the hospital holds about the patient, in one transaction. */
async function eraseRows(tx: Tx, opts: TenantOptions & { id: string }): Promise<EraseCounts> {
  const { id } = opts
  const now = new Date()
  const leadIds = await linkedLeadIds(tx, id)
  const appointmentIds = await appointmentIdsOf(tx, id)
  const holdIds = await holdIdsOf(tx, appointmentIds)
  const patient = await lockPatient(tx, id)
  const addresses = await addressesOf(tx, patient, leadIds)
  const consentsWithdrawn = await withdrawConsents(tx, opts, addresses)
  const messages = communicationsOf(id, leadIds, holdIds)
  // Messages not yet sent are not sent at all; then every message's content is redacted.
  await tx
    .update(communications)
    .set({
      status: 'failed',
      failureCode: 'erased',
      failureReason: 'Not sent: the patient was erased',
      statusChangedAt: now,
    })
    .where(and(messages, eq(communications.status, 'queued')))
  const communicationCount = await countOf(
    tx
      .update(communications)
      .set({ content: ERASED_CONTENT, metadata: {}, contactAddress: null })
      .where(messages)
      .returning({ id: communications.id }),
  )
  const reminderMatch = leadIds.length
    ? or(eq(reminders.patientId, id), inArray(reminders.leadId, leadIds))
    : eq(reminders.patientId, id)
  const reminderCount = await countOf(
    tx
      .update(reminders)
      .set({
        message: ERASED_CONTENT,
        status: sql`case when ${reminders.status} = 'pending' then 'cancelled' else ${reminders.status} end`,
      })
      .where(reminderMatch)
      .returning({ id: reminders.id }),
  )
  const appointmentCount = await countOf(
    tx
      .update(appointments)
      .set({ notes: null, cancelReason: null, updatedAt: now })
      .where(eq(appointments.patientId, id))
      .returning({ id: appointments.id }),
  )
  const bookingHoldCount = holdIds.length
    ? await countOf(
        tx
          .update(bookingHolds)
          .set({ name: ERASED_NAME, phone: '' })
          .where(inArray(bookingHolds.id, holdIds))
          .returning({ id: bookingHolds.id }),
      )
    : 0
  // Invoices are kept (GST law), with the name replaced.
  const invoiceCount = await countOf(
    tx
      .update(invoices)
      .set({ patientName: ERASED_NAME, updatedAt: now })
      .where(eq(invoices.patientId, id))
      .returning({ id: invoices.id }),
  )
  const leadCount = leadIds.length
    ? await countOf(
        tx
          .update(leads)
          .set({ name: ERASED_NAME, phone: '', email: null, notes: null, updatedAt: now })
          .where(inArray(leads.id, leadIds))
          .returning({ id: leads.id }),
      )
    : 0
  // Live monitoring's activities keep what staff did, not who it was with.
  await eraseActivityNames(tx, { patientId: id, leadIds, name: ERASED_NAME })
  await tx
    .update(patients)
    .set({
      name: ERASED_NAME,
      phone: '',
      email: null,
      gender: null,
      dateOfBirth: null,
      dateOfBirthEstimated: false,
      address: null,
      emergencyContact: null,
      insuranceProvider: null,
      insuranceNumber: null,
      medicalHistory: null,
      allergies: null,
      abhaNumber: null,
      erasedAt: now,
      erasedBy: opts.userId,
      updatedAt: now,
    })
    .where(eq(patients.id, id))
  return {
    appointments: appointmentCount,
    invoices: invoiceCount,
    communications: communicationCount,
    consentsWithdrawn,
    leads: leadCount,
    reminders: reminderCount,
    bookingHolds: bookingHoldCount,
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/**
 * POST /api/patients/:id/erase (admins; DPDP Act 2023 right to erasure). The patient's name,
 * typed again, must match. Personal fields are cleared or replaced with 'Erased patient';
 * invoices are kept with the name replaced; messaging consents are withdrawn (new opt-out
 * records, the old ones kept); messages' content is redacted and unsent ones are not sent;
 * appointments are kept without notes; leads converted into the patient are anonymised too.
 * The audit row says who, when and the counts, never the erased data. A second erase: 409.
 */
export async function erasePatient(
  opts: TenantOptions & { id: string; confirmName: string },
): Promise<EraseResult> {
  return withTenant(opts.db, opts, async (tx) => {
    const patient = await lockPatient(tx, opts.id, true)
    if (patient.erasedAt) throw new AppError('CONFLICT', ALREADY_ERASED_MESSAGE)
    if (normalised(opts.confirmName) !== normalised(patient.name)) {
      throw new AppError('VALIDATION', `Invalid input: confirmName: ${ERASE_NAME_MESSAGE}`, [
        { path: 'confirmName', message: ERASE_NAME_MESSAGE },
      ])
    }
    const counts = await eraseRows(tx, opts)
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'patient.erased',
      entityType: 'patient',
      entityId: opts.id,
      summary:
        `Erased patient ${patient.patientNumber} at their request: ` +
        [
          `${plural(counts.appointments, 'appointment')} kept without notes`,
          `${plural(counts.invoices, 'invoice')} kept with the name replaced`,
          `${plural(counts.communications, 'message')} redacted`,
          `${plural(counts.consentsWithdrawn, 'consent')} withdrawn`,
          `${plural(counts.leads, 'lead')} anonymised`,
          `${plural(counts.reminders, 'reminder')} cleared`,
        ].join(', '),
    })
    const [after] = await tx
      .select({ erasedAt: patients.erasedAt })
      .from(patients)
      .where(eq(patients.id, opts.id))
    return {
      id: opts.id,
      erasedAt: (after?.erasedAt ?? new Date()).toISOString(),
      counts,
    }
  })
}
