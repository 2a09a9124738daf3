import { createReadStream } from 'node:fs'
import { open } from 'node:fs/promises'
import { parse, type Parser } from 'csv-parse'
import { parse as parseSync } from 'csv-parse/sync'
import { normalizePhone } from '../../../shared/phone'
import { optionalEmail } from '../../../shared/schemas/common'
import {
  IMPORT_MAX_FIELD_CHARS,
  type ImportField,
  importFieldLabels,
  type ImportMapping,
} from '../../../shared/schemas/lead-import'
import { leadPriorities } from '../../../shared/schemas/leads'
import type { NewLead } from './leads.create'

/** A record (line) longer than this stops the parser: the rest of the file is not read. */
export const MAX_RECORD_BYTES = 1024 * 1024

/** Reading an import file: the parser's settings, its header, its rows checked one by one. */
export function csvParser(options: { toLine?: number } = {}): Parser {
  return parse({
    bom: true,
    max_record_size: MAX_RECORD_BYTES,
    skip_records_with_error: true,
    relax_column_count: true,
    // A quote inside an unquoted cell (=HYPERLINK("…") typed by hand) is text, not an error.
    relax_quotes: true,
    info: true,
    ...(options.toLine ? { to_line: options.toLine } : {}),
  })
}

/**
 * The header row of a saved upload: at most the file's first MAX_RECORD_BYTES are read.
 * Null when the file has no header row.
 */
export async function readHeader(path: string): Promise<string[] | null> {
  const handle = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(MAX_RECORD_BYTES)
    const { bytesRead } = await handle.read(buffer, 0, MAX_RECORD_BYTES, 0)
    const text = buffer.subarray(0, bytesRead).toString('utf8')
    const firstLine = text.split(/\r?\n/, 1)[0] ?? ''
    const rows = parseSync(firstLine, { bom: true, relax_quotes: true }) as string[][]
    const header = rows[0]?.map((h) => h.trim())
    return header?.some((h) => h !== '') ? header : null
  } catch {
    return null
  } finally {
    await handle.close()
  }
}

/** Mapped columns the header lacks. */
export function missingColumns(header: readonly string[], mapping: ImportMapping): string[] {
  return Object.values(mapping).filter(
    (column): column is string => column !== undefined && !header.includes(column),
  )
}

export async function countRecords(path: string): Promise<number> {
  let count = -1 // the header
  const parser = createReadStream(path).pipe(csvParser())
  parser.on('skip', () => undefined)
  for await (const record of parser as AsyncIterable<unknown>) if (record) count++
  return Math.max(0, count)
}

export interface RowError {
  row: number
  column: string
  message: string
  values: string[]
}

export type Checked = { ok: true; lead: NewLead } | { ok: false; error: Omit<RowError, 'values'> }

// eslint-disable-next-line no-control-regex -- NUL cannot be stored in a text column
const NUL = /\u0000/

/** One data row → a lead to create or merge, or the first problem with it. */
export function checkRow(
  record: string[],
  columns: Partial<Record<ImportField, number>>,
  mapping: ImportMapping,
  row: number,
): Checked {
  const fail = (field: ImportField | null, message: string): Checked => ({
    ok: false,
    error: { row, column: field ? (mapping[field] ?? '') : '', message },
  })
  const tooLong = record.findIndex((v) => v.length > IMPORT_MAX_FIELD_CHARS)
  if (tooLong >= 0) {
    const field = (Object.keys(columns) as ImportField[]).find((f) => columns[f] === tooLong)
    return fail(
      field ?? null,
      `A value is longer than ${IMPORT_MAX_FIELD_CHARS.toLocaleString('en-IN')} characters`,
    )
  }
  const value = (field: ImportField) => {
    const index = columns[field]
    return index === undefined ? '' : (record[index] ?? '').trim()
  }
  for (const field of Object.keys(columns) as ImportField[]) {
    const v = value(field)
    if (v.includes('\uFFFD'))
      return fail(field, 'Not valid UTF-8 text: save the file as "CSV UTF-8" and import it again')
    if (NUL.test(v)) return fail(field, 'Contains characters that are not allowed')
  }
  const name = value('name')
  if (!name) return fail('name', 'Name is required')
  if (name.length > 200) return fail('name', 'Name must be at most 200 characters')
  const phoneText = value('phone')
  if (!phoneText) return fail('phone', 'Phone is required')
  const phone = normalizePhone(phoneText)
  if (!phone) return fail('phone', 'Not a valid phone number, e.g. 98765 43210')
  const email = optionalEmail.safeParse(value('email'))
  if (!email.success) return fail('email', 'Not a valid email address')
  const priorityText = value('priority').toLowerCase()
  // Left empty: scored when Settings → priority scoring is on, else medium (issue 27).
  const priority = priorityText === '' ? null : priorityText
  if (priority !== null && !(leadPriorities as readonly string[]).includes(priority))
    return fail('priority', 'Priority must be high, medium or low')
  const limits: [ImportField, number][] = [
    ['serviceInterest', 200],
    ['campaign', 200],
    ['sourceLabel', 200],
    ['notes', 5000],
  ]
  for (const [field, max] of limits) {
    if (value(field).length > max)
      return fail(field, `${importFieldLabels[field]} must be at most ${max} characters`)
  }
  const sourceLabel = value('sourceLabel')
  const notes = [value('notes'), sourceLabel ? `Source: ${sourceLabel}` : ''].filter(Boolean)
  return {
    ok: true,
    lead: {
      name,
      phone,
      email: email.data,
      serviceInterest: value('serviceInterest') || null,
      campaign: value('campaign') || null,
      notes: notes.length ? notes.join('\n') : null,
      priority: priority as NewLead['priority'],
      source: 'csv-import',
    },
  }
}
