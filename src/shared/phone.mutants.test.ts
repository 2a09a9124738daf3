import { describe, expect, it } from 'vitest'
import { normalizeMobilePhone } from './phone'

// What the mobile check lets through beside plain mobiles (mutation testing,
// docs/decisions/024). Numbers found with libphonenumber-js's `max` metadata (getType()).

describe('normalizeMobilePhone', () => {
  it('takes an Indian number that may be a fixed line or a mobile', () => {
    expect(normalizeMobilePhone('67863 33333')).toBe('+916786333333')
  })
  it('refuses Indian service numbers that are not mobiles', () => {
    expect(normalizeMobilePhone('1400333333')).toBeNull()
    expect(normalizeMobilePhone('1800 333 333')).toBeNull()
  })
})
