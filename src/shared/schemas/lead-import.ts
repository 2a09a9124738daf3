import { z } from 'zod'

/**
 * Import CSV of leads (issue 8): POST /api/leads/import takes the file as a text/csv body and
 * a column mapping (which CSV column holds which lead field); GET /api/leads/import/:jobId
 * reports progress; …/errors.csv is the per-row error report. Shared by server and client.
 */

export const importFields = [
  'name',
  'phone',
  'email',
  'serviceInterest',
  'campaign',
  'notes',
  'priority',
  'sourceLabel',
] as const
export type ImportField = (typeof importFields)[number]

export const importFieldLabels: Record<ImportField, string> = {
  name: 'Name',
  phone: 'Phone',
  email: 'Email',
  serviceInterest: 'Service interest',
  campaign: 'Campaign',
  notes: 'Notes',
  priority: 'Priority',
  sourceLabel: 'Source label',
}

/** The file's limits (the server enforces them; the dialog states them). */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024
export const IMPORT_MAX_FIELD_CHARS = 10_000

const column = z
  .string()
  .trim()
  .min(1, { message: 'Pick a column' })
  .max(200, { message: 'Column names are at most 200 characters' })

/** Field → the CSV header it is read from; name and phone are required, the rest optional. */
export const importMapping = z.strictObject({
  name: column,
  phone: column,
  email: column.optional(),
  serviceInterest: column.optional(),
  campaign: column.optional(),
  notes: column.optional(),
  priority: column.optional(),
  sourceLabel: column.optional(),
})
export type ImportMapping = z.infer<typeof importMapping>

/** POST /api/leads/import → 202. */
export const importStarted = z.object({ jobId: z.string() })
export type ImportStarted = z.infer<typeof importStarted>

export const importStatuses = ['queued', 'running', 'done', 'failed'] as const
export type ImportStatus = (typeof importStatuses)[number]

/** What a failed import shows when the failure was not one the import itself explains. */
export const IMPORT_FAILED_MESSAGE =
  'The import failed. Try again, or contact support if it keeps failing.'

/**
 * GET /api/leads/import/:jobId. done/total are data rows; message explains a stop or 0 rows,
 * or why a failed import failed (a text for users, never a row's data or a database error).
 */
export const importProgress = z.object({
  status: z.enum(importStatuses),
  done: z.number(),
  total: z.number(),
  created: z.number(),
  merged: z.number(),
  failed: z.number(),
  message: z.string().nullable(),
})
export type ImportProgress = z.infer<typeof importProgress>

const headerGuesses: Record<ImportField, RegExp> = {
  name: /^(full\s*name|name|lead\s*name|patient\s*name|customer\s*name|contact\s*name)$/,
  phone:
    /^(phone|mobile|phone\s*(number|no\.?)|mobile\s*(number|no\.?)|contact\s*(number|no\.?)|whatsapp|cell|tel(ephone)?)$/,
  email: /^(e-?mail|email\s*address|e-?mail\s*id)$/,
  serviceInterest: /^(service|service\s*interest|interest|treatment|department|enquiry\s*for)$/,
  campaign: /^(campaign|campaign\s*name|ad|ad\s*name)$/,
  notes: /^(notes?|message|comments?|remarks?|details)$/,
  priority: /^(priority)$/,
  sourceLabel: /^(source|lead\s*source|channel|platform)$/,
}

/** A first mapping from the file's headers ('Full Name', 'Mobile', 'Phone Number', 'Email', …). */
export function guessMapping(headers: readonly string[]): Partial<Record<ImportField, string>> {
  const mapping: Partial<Record<ImportField, string>> = {}
  const used = new Set<string>()
  for (const field of importFields) {
    const match = headers.find(
      (h) =>
        !used.has(h) &&
        headerGuesses[field].test(
          h.trim().toLowerCase().replace(/[_]+/g, ' ').replace(/\s+/g, ' '),
        ),
    )
    if (match !== undefined) {
      mapping[field] = match
      used.add(match)
    }
  }
  return mapping
}

/** A cell a spreadsheet would run as a formula gets a leading ' in exported CSV (OWASP). */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
}

/** One CSV line (RFC 4180 quoting) with formulas neutralised. */
export function csvLine(values: readonly string[]): string {
  return `${values
    .map((v) => {
      const safe = neutraliseCell(v)
      return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
    })
    .join(',')}\r\n`
}
