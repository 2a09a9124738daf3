/**
 * India's GST state codes (the first two digits of a GSTIN), as the GST portal lists them for
 * new registrations. A hospital's state decides CGST + SGST (a patient in the same state) or
 * IGST (another state) on a Tax Invoice.
 *
 * Left out on purpose: 25 (Daman and Diu) and 28 (Andhra Pradesh before its division), whose
 * registrations moved to 26 and 37, and 99 (Centre Jurisdiction), which is not a place of
 * supply. 97 (Other Territory) covers places outside every state and union territory.
 */
export const gstStates = [
  { code: '01', name: 'Jammu and Kashmir' },
  { code: '02', name: 'Himachal Pradesh' },
  { code: '03', name: 'Punjab' },
  { code: '04', name: 'Chandigarh' },
  { code: '05', name: 'Uttarakhand' },
  { code: '06', name: 'Haryana' },
  { code: '07', name: 'Delhi' },
  { code: '08', name: 'Rajasthan' },
  { code: '09', name: 'Uttar Pradesh' },
  { code: '10', name: 'Bihar' },
  { code: '11', name: 'Sikkim' },
  { code: '12', name: 'Arunachal Pradesh' },
  { code: '13', name: 'Nagaland' },
  { code: '14', name: 'Manipur' },
  { code: '15', name: 'Mizoram' },
  { code: '16', name: 'Tripura' },
  { code: '17', name: 'Meghalaya' },
  { code: '18', name: 'Assam' },
  { code: '19', name: 'West Bengal' },
  { code: '20', name: 'Jharkhand' },
  { code: '21', name: 'Odisha' },
  { code: '22', name: 'Chhattisgarh' },
  { code: '23', name: 'Madhya Pradesh' },
  { code: '24', name: 'Gujarat' },
  { code: '26', name: 'Dadra and Nagar Haveli and Daman and Diu' },
  { code: '27', name: 'Maharashtra' },
  { code: '29', name: 'Karnataka' },
  { code: '30', name: 'Goa' },
  { code: '31', name: 'Lakshadweep' },
  { code: '32', name: 'Kerala' },
  { code: '33', name: 'Tamil Nadu' },
  { code: '34', name: 'Puducherry' },
  { code: '35', name: 'Andaman and Nicobar Islands' },
  { code: '36', name: 'Telangana' },
  { code: '37', name: 'Andhra Pradesh' },
  { code: '38', name: 'Ladakh' },
  { code: '97', name: 'Other Territory' },
] as const

export type GstStateCode = (typeof gstStates)[number]['code']

export const gstStateCodes = gstStates.map((s) => s.code) as [GstStateCode, ...GstStateCode[]]

export function isGstStateCode(code: string): code is GstStateCode {
  return (gstStateCodes as readonly string[]).includes(code)
}

/** 'Maharashtra' for '27'; null for a code not in the list. */
export function gstStateName(code: string | null | undefined): string | null {
  return gstStates.find((s) => s.code === code)?.name ?? null
}

/**
 * A GSTIN's shape: state code (2 digits), PAN (5 letters, 4 digits, 1 letter), entity number
 * (1-9 or A-Z), 'Z', check character.
 */
export const GSTIN_PATTERN = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/

const GSTIN_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'

/**
 * The check character of a GSTIN's first 14 characters (the GSTN's mod-36 scheme: each
 * character's value times 1 or 2 alternately, quotient and remainder by 36 summed).
 */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0
  for (let i = 0; i < 14; i++) {
    const product = GSTIN_CHARS.indexOf(first14.charAt(i)) * (i % 2 === 0 ? 1 : 2)
    sum += Math.floor(product / 36) + (product % 36)
  }
  return GSTIN_CHARS.charAt((36 - (sum % 36)) % 36)
}

/** The shape holds and the last character is the right check character. */
export function isValidGstin(gstin: string): boolean {
  return GSTIN_PATTERN.test(gstin) && gstinCheckCharacter(gstin) === gstin.charAt(14)
}
