import { asc, eq, getTableColumns, inArray, or } from 'drizzle-orm'
import {
  EXPORT_CSV_HEADER,
  type ExportRecord,
  exportSections,
  type PatientExport,
} from '../../../shared/schemas/data-rights'
import { csvLine } from '../../../shared/schemas/lead-import'
import type { Tx } from '../../db/client'
import { appointments } from '../../db/schema/appointments'
import { auditEvents } from '../../db/schema/audit'
import { invoiceLines, invoices, payments } from '../../db/schema/billing'
import { hospitals } from '../../db/schema/hospitals'
import { communications, leads } from '../../db/schema/leads'
import { consentRecords, reminders } from '../../db/schema/messaging'
import { withPlatform, withTenant } from '../../db/tenant'
import { notFound } from '../../http/app-error'
import { recordAudit } from '../audit/audit.service'
import type { TenantOptions } from '../patients/patients.service'
import {
  addressesOf,
  appointmentIdsOf,
  communicationsOf,
  consentsOf,
  holdIdsOf,
  invoiceIdsOf,
  linkedLeadIds,
  lockPatient,
} from './patient-records'

/** A row as plain cells: times as ISO strings, JSON as its text; hospital ids left out. */
function toRecord(row: Record<string, unknown>): ExportRecord {
  const out: ExportRecord = {}
  for (const [key, value] of Object.entries(row)) {
    if (key === 'hospitalId') continue
    if (value instanceof Date) out[key] = value.toISOString()
    else if (value === null || value === undefined) out[key] = null
    else if (typeof value === 'object') out[key] = JSON.stringify(value)
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      out[key] = value
    else out[key] = String(value as bigint)
  }
  return out
}

const records = (rows: readonly object[]) => rows.map((r) => toRecord(r as Record<string, unknown>))

// The leads' own columns, without the generated search keys.
const leadColumns = Object.fromEntries(
  Object.entries(getTableColumns(leads)).filter(
    ([key]) => !['nameSearch', 'phoneDigits'].includes(key),
  ),
) as Omit<ReturnType<typeof getTableColumns<typeof leads>>, 'nameSearch' | 'phoneDigits'>

/** Everything about the patient, read in one tenant transaction. */
async function collect(tx: Tx, patientId: string) {
  const patient = await lockPatient(tx, patientId)
  const leadIds = await linkedLeadIds(tx, patientId)
  const appointmentIds = await appointmentIdsOf(tx, patientId)
  const invoiceIds = await invoiceIdsOf(tx, patientId)
  const holdIds = await holdIdsOf(tx, appointmentIds)
  const addresses = await addressesOf(tx, patient, leadIds)
  const consentMatch = consentsOf(addresses)
  const byInvoice = <T>(run: (ids: string[]) => Promise<T[]>) =>
    invoiceIds.length ? run(invoiceIds) : Promise.resolve([] as T[])
  const entityIds = [patientId, ...leadIds, ...appointmentIds, ...invoiceIds]
  return {
    patient,
    appointments: await tx
      .select()
      .from(appointments)
      .where(eq(appointments.patientId, patientId))
      .orderBy(asc(appointments.startsAt)),
    invoices: await tx
      .select()
      .from(invoices)
      .where(eq(invoices.patientId, patientId))
      .orderBy(asc(invoices.createdAt)),
    invoiceLines: await byInvoice((ids) =>
      tx
        .select()
        .from(invoiceLines)
        .where(inArray(invoiceLines.invoiceId, ids))
        .orderBy(asc(invoiceLines.invoiceId), asc(invoiceLines.lineNo)),
    ),
    payments: await byInvoice((ids) =>
      tx.select().from(payments).where(inArray(payments.invoiceId, ids)),
    ),
    communications: await tx
      .select()
      .from(communications)
      .where(communicationsOf(patientId, leadIds, holdIds))
      .orderBy(asc(communications.createdAt)),
    consents: consentMatch
      ? await tx
          .select()
          .from(consentRecords)
          .where(consentMatch)
          .orderBy(asc(consentRecords.createdAt))
      : [],
    leads: leadIds.length
      ? await tx.select(leadColumns).from(leads).where(inArray(leads.id, leadIds))
      : [],
    reminders: await tx
      .select()
      .from(reminders)
      .where(
        leadIds.length
          ? or(eq(reminders.patientId, patientId), inArray(reminders.leadId, leadIds))
          : eq(reminders.patientId, patientId),
      ),
    audit: await tx
      .select()
      .from(auditEvents)
      .where(inArray(auditEvents.entityId, entityIds))
      .orderBy(asc(auditEvents.createdAt)),
  }
}

async function grievanceOf(opts: TenantOptions) {
  const [row] = await withPlatform(opts.db, (tx) =>
    tx
      .select({
        name: hospitals.name,
        grievanceName: hospitals.grievanceName,
        grievanceEmail: hospitals.grievanceEmail,
      })
      .from(hospitals)
      .where(eq(hospitals.id, opts.hospitalId)),
  )
  if (!row) throw notFound('Hospital')
  return row
}

/**
 * GET /api/patients/:id/export.(json|csv): everything the hospital holds about one patient
 * (profile, appointments, invoices with lines and payments, messages, consent records, the
 * leads they came from, reminders, audit entries), read in one transaction and audited there.
 */
export async function exportPatient(
  opts: TenantOptions & { id: string; format: 'json' | 'csv' },
): Promise<{ patientNumber: string; data: PatientExport }> {
  const hospital = await grievanceOf(opts)
  const found = await withTenant(opts.db, opts, async (tx) => {
    const all = await collect(tx, opts.id)
    await recordAudit(tx, {
      hospitalId: opts.hospitalId,
      actorUserId: opts.userId,
      impersonatorUserId: opts.impersonatorUserId,
      action: 'patient.exported',
      entityType: 'patient',
      entityId: opts.id,
      summary: `Exported patient ${all.patient.patientNumber}'s record (${opts.format.toUpperCase()})`,
    })
    return all
  })
  const data: PatientExport = {
    exportedAt: new Date().toISOString(),
    hospital,
    patient: toRecord(found.patient),
    appointments: records(found.appointments),
    invoices: records(found.invoices),
    invoiceLines: records(found.invoiceLines),
    payments: records(found.payments),
    communications: records(found.communications),
    consents: records(found.consents),
    leads: records(found.leads),
    reminders: records(found.reminders),
    audit: records(found.audit),
  }
  return { patientNumber: found.patient.patientNumber, data }
}

/**
 * The export as one CSV a spreadsheet opens: Section, Record, Field, Value (one row a field),
 * so every section fits one file. Through the project's CSV writer (formulas neutralised),
 * with a BOM so Excel reads UTF-8.
 */
export function exportCsv(data: PatientExport): string {
  let out = `\uFEFF${csvLine(EXPORT_CSV_HEADER)}`
  const cell = (v: ExportRecord[string]) => (v === null ? '' : String(v))
  out += csvLine(['hospital', '1', 'name', data.hospital.name])
  out += csvLine(['hospital', '1', 'grievanceName', data.hospital.grievanceName ?? ''])
  out += csvLine(['hospital', '1', 'grievanceEmail', data.hospital.grievanceEmail ?? ''])
  for (const section of exportSections) {
    const value = data[section]
    const rows = Array.isArray(value) ? value : [value]
    rows.forEach((record, i) => {
      for (const [field, v] of Object.entries(record)) {
        out += csvLine([section, String(i + 1), field, cell(v)])
      }
    })
  }
  return out
}
