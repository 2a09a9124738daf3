import { type MetadataJson, parsePhoneNumberFromString } from 'libphonenumber-js/core'
import india from './phone-metadata-in.json'

/**
 * An Indian number in E.164 ('+919876543210', '+912025501234') shown as libphonenumber shows
 * it ('+91 98765 43210', '+91 20 2550 1234'), with India's metadata alone (about 1 KB gzip,
 * scripts/phone-metadata.mjs); null for any other number, which phone-format.ts shows. Most
 * numbers a clinic stores are Indian, so list screens show them at once and load every
 * country's formats (20 KB gzip) only when another country's number is on screen.
 */
export function formatIndianPhone(e164: string): string | null {
  if (!e164.startsWith('+91')) return null
  const parsed = parsePhoneNumberFromString(e164, india as unknown as MetadataJson)
  return parsed?.country === 'IN' ? parsed.formatInternational() : null
}
