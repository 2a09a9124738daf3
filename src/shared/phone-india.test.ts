import all from 'libphonenumber-js/metadata.min.json'
import { describe, expect, it } from 'vitest'
import { formatIndianPhone } from './phone-india'
import india from './phone-metadata-in.json'
import { formatPhone } from './phone-format'

describe('formatIndianPhone', () => {
  it("uses the installed libphonenumber's metadata for India (else run scripts/phone-metadata.mjs)", () => {
    expect(india.version).toBe(all.version)
    expect(india.countries.IN).toEqual(all.countries.IN)
    expect(india.country_calling_codes).toEqual({ 91: all.country_calling_codes['91'] })
  })

  it('shows Indian mobiles and landlines exactly as the full library does', () => {
    // Every 3-digit start from 100 to 999 with varied endings: mobiles (6-9), landlines
    // (Pune 20, Delhi 11, Lucknow 522 …), toll-free and the invalid ones between.
    let checked = 0
    for (let start = 100; start <= 999; start++) {
      for (const ending of ['0000000', '2550123', '9876543']) {
        const e164 = `+91${start}${ending}`
        expect(formatIndianPhone(e164), e164).toBe(formatPhone(e164))
        checked++
      }
    }
    expect(checked).toBe(2700)
    expect(formatIndianPhone('+919876543210')).toBe('+91 98765 43210')
    expect(formatIndianPhone('+912025501234')).toBe('+91 20 2550 1234')
  })

  it("leaves other countries' numbers to the full library", () => {
    for (const e164 of ['+447946095800', '+14155552671', '+9779801234567', '+9715012345678'])
      expect(formatIndianPhone(e164), e164).toBeNull()
  })
})
