/**
 * Dates typed the Indian way, dd/mm/yyyy, whatever the browser's locale; the form value is
 * ISO yyyy-mm-dd. Pure helpers behind DateField (date-field.tsx).
 */

export const DATE_PLACEHOLDER = 'dd/mm/yyyy'
export const DATE_FORMAT_MESSAGE = 'Enter the date as dd/mm/yyyy, e.g. 15/04/1990'

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/
const DISPLAY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/
/** Separators people type between day, month and year; all read as '/'. */
const SEPARATORS = /[-. ]/g

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false
  const date = new Date(Date.UTC(year, month - 1, day))
  date.setUTCFullYear(year) // years before 100 are not taken as 19xx
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** '1990-04-15' shown as '15/04/1990'; anything else is returned as it is. */
export function isoToDisplay(value: string): string {
  const m = ISO.exec(value)
  return m ? `${m[3]}/${m[2]}/${m[1]}` : value
}

function readDisplay(text: string): { day: number; month: number; year: number } | null {
  const m = DISPLAY.exec(text.trim().replace(SEPARATORS, '/'))
  if (!m) return null
  return { day: Number(m[1]), month: Number(m[2]), year: Number(m[3]) }
}

/** '15/04/1990' (or '15-4-1990') as '1990-04-15'; null unless it is a real calendar date. */
export function displayToIso(text: string): string | null {
  const parts = readDisplay(text)
  if (!parts || !isRealDate(parts.year, parts.month, parts.day)) return null
  return `${pad(parts.year, 4)}-${pad(parts.month)}-${pad(parts.day)}`
}

/** What the form holds for typed text: '' when empty, ISO when a real date, else the text. */
export function dateTextToValue(text: string): string {
  const trimmed = text.trim()
  if (trimmed === '') return ''
  return displayToIso(trimmed) ?? trimmed
}

/** Why a form value is not a date yet (null when it is '' or a real ISO date). */
export function dateValueError(value: string): string | null {
  const trimmed = value.trim()
  if (trimmed === '') return null
  const iso = ISO.exec(trimmed)
  if (iso) {
    return isRealDate(Number(iso[1]), Number(iso[2]), Number(iso[3]))
      ? null
      : `No such date: ${isoToDisplay(trimmed)}. Check the day and month.`
  }
  const parts = readDisplay(trimmed)
  if (!parts) return DATE_FORMAT_MESSAGE
  if (!isRealDate(parts.year, parts.month, parts.day))
    return `No such date: ${pad(parts.day)}/${pad(parts.month)}/${parts.year}. Check the day and month.`
  return null
}

const LIMITS = [2, 2, 4] as const

/**
 * Typing help: as digits are typed at the end, slashes are put in ('15041990' becomes
 * '15/04/1990', '15' becomes '15/'), other separators become '/', and a year stops at 4
 * digits. Text with letters is left alone for the error message to explain.
 */
export function autoFormatDateText(text: string): string {
  const normalized = text.replace(SEPARATORS, '/')
  if (!/^[\d/]*$/.test(normalized)) return normalized
  const parts: string[] = []
  let current = ''
  for (const c of normalized) {
    const index = parts.length
    if (c === '/') {
      if (current !== '' && index < 2) {
        parts.push(current)
        current = ''
      }
      continue
    }
    if (current.length === LIMITS[index] && index < 2) {
      parts.push(current)
      current = ''
    }
    if (current.length < LIMITS[parts.length]!) current += c
  }
  let out = parts.map((p) => `${p}/`).join('') + current
  if (parts.length < 2 && current.length === LIMITS[parts.length]) out += '/'
  return out
}

/** On leaving the field: '1/4/1990' becomes '01/04/1990' when it is a real date. */
export function tidyDateText(text: string): string {
  const iso = displayToIso(text)
  return iso ? isoToDisplay(iso) : text.trim()
}
