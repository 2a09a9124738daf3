import { z } from 'zod'

/*
 * Settings → Data (issue 27): the hospital's whole export (a zip of CSV files plus a JSON
 * manifest), patients as FHIR R4 NDJSON, Create Backup (the same export until the backup issue
 * lands) and Delete All Data. Shared by the server and the client.
 */

export const exportKinds = ['data', 'fhir', 'backup'] as const
export type ExportKind = (typeof exportKinds)[number]

/** POST /api/data/exports */
export const startExportInput = z.strictObject({
  kind: z.enum(exportKinds, { message: 'Choose data, fhir or backup' }),
})
export type StartExportInput = z.infer<typeof startExportInput>

/** The manifest's schema version: bump it when a file's columns change meaning. */
export const EXPORT_SCHEMA_VERSION = 1

export const EXPORT_FAILED_MESSAGE =
  'The export failed. Try again, or contact support if it keeps failing.'
export const EXPORT_BUSY_MESSAGE =
  'An export of your hospital is already in progress. Wait for it to finish, then export again.'

/** GET /api/data/exports/:jobId */
export interface ExportStatus {
  id: string
  kind: ExportKind
  status: 'queued' | 'running' | 'done' | 'failed'
  /** Rows written so far, of `total` rows (the progress bar). */
  done: number
  total: number
  /** When done: the download's file name and size in bytes. */
  fileName: string | null
  bytes: number | null
  message: string | null
  createdAt: string
}

/**
 * The download's file name: arogya-export-2026-11-27.zip, arogya-patients-fhir-….ndjson, dated
 * by the hospital's calendar (an export at 01:00 IST is that day's, not the day before in UTC).
 */
export function exportFileName(kind: ExportKind, date: Date, timeZone = 'Asia/Kolkata'): string {
  // en-CA writes dates as yyyy-mm-dd.
  const day = new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' }).format(date)
  if (kind === 'fhir') return `arogya-patients-fhir-${day}.ndjson`
  return `arogya-${kind === 'backup' ? 'backup' : 'export'}-${day}.zip`
}

export const DELETE_NAME_MESSAGE = 'Type the hospital’s name exactly as shown to confirm'
export const DELETE_PASSWORD_MESSAGE = 'Enter your password'
export const WRONG_PASSWORD_MESSAGE = 'The password is not correct'

/** POST /api/data/delete-all */
export const deleteAllDataInput = z.strictObject({
  confirmName: z
    .string({ message: DELETE_NAME_MESSAGE })
    .trim()
    .min(1, { message: DELETE_NAME_MESSAGE })
    .max(200, { message: DELETE_NAME_MESSAGE }),
  password: z
    .string({ message: DELETE_PASSWORD_MESSAGE })
    .min(1, { message: DELETE_PASSWORD_MESSAGE })
    .max(200, { message: DELETE_PASSWORD_MESSAGE }),
})
export type DeleteAllDataInput = z.infer<typeof deleteAllDataInput>

export interface DeleteAllResult {
  /** Rows removed per table (tables with none are listed with 0). */
  counts: Record<string, number>
  total: number
  /** Tables kept on purpose (the audit trail, numbering, security policy). */
  kept: string[]
}
