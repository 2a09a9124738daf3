import { z } from 'zod'

/*
 * Patients' data rights (issue 27, India's DPDP Act 2023; docs/decisions/027-data-rights.md):
 * GET /api/patients/:id/export.json and export.csv (everything held about one patient) and
 * POST /api/patients/:id/erase (admins). Shared by the server and the client.
 */

/** What an erased patient's name becomes, here and on the invoices the law keeps. */
export const ERASED_NAME = 'Erased patient'
/** What an erased patient's messages' content becomes. */
export const ERASED_CONTENT = '[Content erased at the patient’s request]'
export const ERASE_NAME_MESSAGE = 'Type the patient’s name exactly as shown to confirm'
export const ALREADY_ERASED_MESSAGE = 'This patient has already been erased'

/** POST /api/patients/:id/erase: the patient's name, typed again to confirm. */
export const erasePatientInput = z.strictObject({
  confirmName: z
    .string({ message: ERASE_NAME_MESSAGE })
    .trim()
    .min(1, { message: ERASE_NAME_MESSAGE })
    .max(200, { message: ERASE_NAME_MESSAGE }),
})
export type ErasePatientInput = z.infer<typeof erasePatientInput>

/** What an erase changed: counts only (the audit row stores these, never the erased data). */
export const eraseCounts = z.object({
  appointments: z.number().int(),
  invoices: z.number().int(),
  communications: z.number().int(),
  consentsWithdrawn: z.number().int(),
  leads: z.number().int(),
  reminders: z.number().int(),
  bookingHolds: z.number().int(),
})
export type EraseCounts = z.infer<typeof eraseCounts>

export const eraseResult = z.object({
  id: z.string(),
  erasedAt: z.string(),
  counts: eraseCounts,
})
export type EraseResult = z.infer<typeof eraseResult>

/** The export's sections, in the order the JSON and the CSV give them. */
export const exportSections = [
  'patient',
  'appointments',
  'invoices',
  'invoiceLines',
  'payments',
  'communications',
  'consents',
  'leads',
  'reminders',
  'audit',
] as const
export type ExportSection = (typeof exportSections)[number]

type Cell = string | number | boolean | null
export type ExportRecord = Record<string, Cell>

/** GET /api/patients/:id/export.json */
export interface PatientExport {
  exportedAt: string
  hospital: { name: string; grievanceName: string | null; grievanceEmail: string | null }
  patient: ExportRecord
  appointments: ExportRecord[]
  invoices: ExportRecord[]
  invoiceLines: ExportRecord[]
  payments: ExportRecord[]
  communications: ExportRecord[]
  consents: ExportRecord[]
  leads: ExportRecord[]
  reminders: ExportRecord[]
  audit: ExportRecord[]
}

/** The export CSV's header: one row per field of each record, so every section fits one file. */
export const EXPORT_CSV_HEADER = ['Section', 'Record', 'Field', 'Value']

/** The download's file name: 'patient-SMH-000123.json'. */
export function exportFileName(patientNumber: string, format: 'json' | 'csv'): string {
  return `patient-${patientNumber.replace(/[^A-Za-z0-9-]/g, '')}.${format}`
}
