import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import { csvLine } from '../../../shared/schemas/lead-import'
import type { RowError } from './leads.import-rows'

/**
 * The error report (<job>.errors.csv) of an import, bounded (issue 24): the first `limit`
 * failed rows are listed in full, each copied value cut to VALUE_CHARS and each row to
 * ROW_CHARS (and ROW_VALUES values); the rest are only counted by reason, in lines appended
 * at the end. A 50 MB file of bad rows thus makes a report of about limit x 0.5 KB (a little
 * more for quoted or non-Latin text), not the 1.4 GB the unbounded report could reach.
 *
 * Lines are written at the offset the import's saved state names, before the batch commits:
 * an attempt that runs a batch again (a retry, or a worker that lost its lease) writes the
 * same bytes at the same place, so the report never holds a row twice.
 */
export const VALUE_CHARS = 100
export const ROW_CHARS = 500
export const ROW_VALUES = 100

export interface ReportCounts {
  /** Bytes of the report written and committed so far. */
  errorsBytes: number
  /** Failed rows listed in full. */
  listed: number
  /** Failed rows not listed, by reason (the rows' messages contain no row data). */
  unlisted: Record<string, number>
}

/** A row's values as the report copies them: at most ROW_VALUES, ROW_CHARS in all. */
export function boundValues(values: readonly string[]): string[] {
  const out: string[] = []
  let budget = ROW_CHARS
  for (const value of values.slice(0, ROW_VALUES)) {
    if (budget <= 0) break
    const max = Math.min(VALUE_CHARS, budget)
    const cut = value.length > max ? `${value.slice(0, max - 1)}…` : value
    out.push(cut)
    budget -= cut.length + 1
  }
  return out
}

export const headerLine = (header: readonly string[]) =>
  csvLine(['Row', 'Column', 'Error', ...boundValues(header)])

/** The lines of one batch's failed rows, and the report's counts after them. */
export function reportLines(
  errors: readonly RowError[],
  counts: ReportCounts,
  limit: number,
): { text: string; next: ReportCounts } {
  let text = ''
  let listed = counts.listed
  const unlisted = { ...counts.unlisted }
  for (const e of errors) {
    if (listed < limit) {
      text += csvLine([String(e.row), e.column, e.message, ...boundValues(e.values)])
      listed++
    } else {
      unlisted[e.message] = (unlisted[e.message] ?? 0) + 1
    }
  }
  return {
    text,
    next: { errorsBytes: counts.errorsBytes + Buffer.byteLength(text), listed, unlisted },
  }
}

const count = new Intl.NumberFormat('en-IN')

/** The closing lines: how many failed rows were not listed, by reason. Empty when none. */
export function summaryText(counts: ReportCounts, limit: number): string {
  const reasons = Object.entries(counts.unlisted).sort((a, b) => b[1] - a[1])
  if (reasons.length === 0) return ''
  const lines = [
    csvLine([
      '',
      '',
      `Only the first ${count.format(limit)} failed rows are listed above; the others are counted below.`,
    ]),
    ...reasons.map(([reason, n]) =>
      csvLine([
        '',
        '',
        `Not listed: ${count.format(n)} more ${n === 1 ? 'row' : 'rows'} with "${reason}"`,
      ]),
    ),
  ]
  return lines.join('')
}

/** Writes text at offset (creating the file), then cuts the file to end there. */
export async function writeReportAt(path: string, offset: number, text: string, cut = false) {
  const handle = await open(path, constants.O_RDWR | constants.O_CREAT, 0o600)
  try {
    const bytes = Buffer.from(text)
    if (bytes.length) await handle.write(bytes, 0, bytes.length, offset)
    if (cut) await handle.truncate(offset + bytes.length)
  } finally {
    await handle.close()
  }
}
