import { dateInZone, financialYear, formatInvoiceNumber } from '@/shared/invoice-math'

/**
 * The Invoice prefix field's hint, with the prefix as typed (issue 40 item 15: it said "SMH/…"
 * while the prefix was SMHP) and this financial year in the hospital's zone.
 */
export function invoicePrefixHint(prefix: string, timeZone: string, now = new Date()): string {
  const shown = prefix.trim().toUpperCase() || 'INV'
  let fy: string
  try {
    fy = financialYear(dateInZone(now, timeZone))
  } catch {
    fy = financialYear(now.toISOString().slice(0, 10))
  }
  return `Invoice numbers look like ${formatInvoiceNumber(shown, fy, 123)}`
}
