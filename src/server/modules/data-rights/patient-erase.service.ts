import { and, eq, inArray, isNotNull, or, sql } from 'drizzle-orm'
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
import { calls } from '../../db/schema/calls'
import { erasedPatients } from '../../db/schema/erasure'
import { communications, leads } from '../../db/schema/leads'
import { reminders } from '../../db/schema/messaging'
import { patientColumns, patients } from '../../db/schema/patients'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import { deleteRecordingFiles } from '../calls/recording-jobs'
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

/** Who erases: the admin at the erase, the restore's requester (or nobody) when re-applied. */
export interface Eraser {
  hospitalId: string
  userId: string | null
}

/** One erased patient: their id and the leads anonymised with them (erased_patients). */
export interface ErasedEntry {
  patientId: string
  leadIds?: readonly string[]
}

/** Withdraws every messaging consent on the addresses not already withdrawn (a kept record). */
async function withdrawConsents(tx: Tx, opts: Eraser, addresses: Addresses) {
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

/**
 * An erased lead's phone: unique per lead (one lead per phone per hospital, so a second erased
 * lead could not also hold ''), with no digits of anyone's number (the lead's id, its digits
 * spelled as letters, so that a search by digits never finds it): 'erased-cbaf…'.
 */
export const erasedLeadPhone = sql<string>`'erased-' || translate(replace(${leads.id}::text, '-', ''), '0123456789', 'ghijklmnop')`

const countOf = async (rows: Promise<unknown[]>) => (await rows).length

/**
 * Clears every personal field the hospital holds about one patient, in the caller's
 * transaction. Idempotent: run again (after a restore brought rows back) it clears them again,
 * keeps the first erasure's time and author, and withdraws only consents not withdrawn yet. A
 * patient row that is missing (Delete All Data, then an older backup) still has their leads
 * anonymised.
 */
async function eraseRows(
  tx: Tx,
  opts: Eraser,
  entry: ErasedEntry,
): Promise<{ counts: EraseCounts; leadIds: string[]; recordingKeys: string[] }> {
  const id = entry.patientId
  const now = new Date()
  const leadIds = [...new Set([...(await linkedLeadIds(tx, id)), ...(entry.leadIds ?? [])])]
  const appointmentIds = await appointmentIdsOf(tx, id)
  const holdIds = await holdIdsOf(tx, appointmentIds)
  const [patient] = await tx
    .select(patientColumns)
    .from(patients)
    .where(eq(patients.id, id))
    .for('update')
  const addresses = await addressesOf(tx, patient ?? { phone: '', email: null }, leadIds)
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
          .set({
            name: ERASED_NAME,
            phone: erasedLeadPhone,
            email: null,
            notes: null,
            updatedAt: now,
          })
          .where(inArray(leads.id, leadIds))
          .returning({ id: leads.id }),
      )
    : 0
  // Calls keep when and how long staff talked, not the number, what was noted or the
  // recording (issue 41: its file is deleted once this commits, see erasePatient).
  const theirCalls = leadIds.length
    ? or(eq(calls.patientId, id), inArray(calls.leadId, leadIds))
    : eq(calls.patientId, id)
  const recorded = await tx
    .select({ key: calls.recordingKey })
    .from(calls)
    .where(and(theirCalls, isNotNull(calls.recordingKey)))
  await tx
    .update(calls)
    .set({
      customerPhone: '',
      dispositionNote: null,
      recordingKey: null,
      recordingBytes: null,
      updatedAt: now,
    })
    .where(theirCalls)
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
      erasedAt: sql`coalesce(${patients.erasedAt}, ${now.toISOString()}::timestamptz)`,
      erasedBy: sql`coalesce(${patients.erasedBy}, ${opts.userId})`,
      updatedAt: now,
    })
    .where(eq(patients.id, id))
  const counts = {
    appointments: appointmentCount,
    invoices: invoiceCount,
    communications: communicationCount,
    consentsWithdrawn,
    leads: leadCount,
    reminders: reminderCount,
    bookingHolds: bookingHoldCount,
  }
  const recordingKeys = recorded.map((r) => r.key).filter((k): k is string => k !== null)
  return { counts, leadIds, recordingKeys }
}

const noCounts = (): EraseCounts => ({
  appointments: 0,
  invoices: 0,
  communications: 0,
  consentsWithdrawn: 0,
  leads: 0,
  reminders: 0,
  bookingHolds: 0,
})

/**
 * The erasure of `entries` applied to every row that names them, in the caller's transaction
 * (the erase itself, and every restore after it writes the backup's rows). Returns the
 * counts summed over the patients.
 */
export async function applyErasure(
  tx: Tx,
  opts: Eraser,
  entries: readonly ErasedEntry[],
): Promise<EraseCounts> {
  const total = noCounts()
  for (const entry of entries) {
    const { counts } = await eraseRows(tx, opts, entry)
    for (const k of Object.keys(total) as (keyof EraseCounts)[]) total[k] += counts[k]
  }
  return total
}

/**
 * Re-applies every erasure of the hospital (erased_patients) in the caller's transaction: a
 * restore calls it after writing the backup's rows, so an older backup never brings an erased
 * patient's name, phone, notes or messages back. Returns how many patients it re-applied.
 */
export async function reapplyErasures(tx: Tx, opts: Eraser): Promise<number> {
  const list = await tx
    .select({ patientId: erasedPatients.patientId, leadIds: erasedPatients.leadIds })
    .from(erasedPatients)
  await applyErasure(tx, opts, list)
  return list.length
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
  let recordingKeys: string[] = []
  const result = await withTenant(opts.db, opts, async (tx) => {
    const patient = await lockPatient(tx, opts.id, true)
    if (patient.erasedAt) throw new AppError('CONFLICT', ALREADY_ERASED_MESSAGE)
    if (normalised(opts.confirmName) !== normalised(patient.name)) {
      throw new AppError('VALIDATION', `Invalid input: confirmName: ${ERASE_NAME_MESSAGE}`, [
        { path: 'confirmName', message: ERASE_NAME_MESSAGE },
      ])
    }
    const erased = await eraseRows(tx, opts, { patientId: opts.id })
    const { counts, leadIds } = erased
    recordingKeys = erased.recordingKeys
    // The durable list (ids only) that every later restore re-applies.
    await tx
      .insert(erasedPatients)
      .values({ hospitalId: opts.hospitalId, patientId: opts.id, leadIds, erasedBy: opts.userId })
      .onConflictDoNothing()
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
  // Committed: no row names the recordings any more, so their files go (issue 41).
  await deleteRecordingFiles(recordingKeys)
  return result
}
