import { differenceInYears } from 'date-fns'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ageInYears } from './age'
import { estimatedDateOfBirth } from './schemas/patients'

/** Noon of that day in India (06:30 UTC). */
const on = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d, 6, 30, 0))

describe('ageInYears', () => {
  const today = on(2026, 11, 22)

  it('counts whole years when the birthday has passed this year', () => {
    expect(ageInYears('1990-05-10', today)).toBe(36)
    expect(ageInYears('1990-11-21', today)).toBe(36)
  })

  it('counts the birthday itself as a full year', () => {
    expect(ageInYears('1990-11-22', today)).toBe(36)
  })

  it('subtracts one when the birthday has not yet come this year', () => {
    expect(ageInYears('1990-11-23', today)).toBe(35)
    expect(ageInYears('1990-12-01', today)).toBe(35)
  })

  it('is 0 for a baby born today or this year', () => {
    expect(ageInYears('2026-11-22', today)).toBe(0)
    expect(ageInYears('2026-01-01', today)).toBe(0)
    expect(ageInYears('2025-11-23', today)).toBe(0)
  })

  it('handles a 29 February birthday', () => {
    expect(ageInYears('2000-02-29', on(2025, 2, 28))).toBe(24)
    expect(ageInYears('2000-02-29', on(2025, 3, 1))).toBe(25)
    expect(ageInYears('2000-02-29', on(2024, 2, 29))).toBe(24)
  })

  it('is null for a missing, unreadable or future date', () => {
    expect(ageInYears(null, today)).toBeNull()
    expect(ageInYears(undefined, today)).toBeNull()
    expect(ageInYears('', today)).toBeNull()
    expect(ageInYears('22/11/1990', today)).toBeNull()
    expect(ageInYears('1990-11-22T00:00:00Z', today)).toBeNull()
    expect(ageInYears('not a date', today)).toBeNull()
    expect(ageInYears('1990-13-01', today)).toBeNull()
    expect(ageInYears('1990-02-30', today)).toBeNull()
    expect(ageInYears('1990-00-10', today)).toBeNull()
    expect(ageInYears('2026-11-23', today)).toBeNull()
  })

  it("counts the day in the hospital's time zone, not the machine's", () => {
    // 23 Nov 2026 20:40 UTC is already 24 Nov in India: a birthday on the 24th has come.
    const evening = new Date(Date.UTC(2026, 10, 23, 20, 40))
    expect(ageInYears('1992-11-24', evening)).toBe(34)
    expect(ageInYears('1992-11-24', evening, 'UTC')).toBe(33)
    expect(ageInYears('1992-11-24', evening, 'America/New_York')).toBe(33)
  })

  it('agrees with the estimate made from an age, at any hour', () => {
    for (let hour = 0; hour < 24; hour++) {
      const now = new Date(Date.UTC(2026, 10, 23, hour, 15))
      expect(ageInYears(estimatedDateOfBirth(34, now), now)).toBe(34)
    }
  })

  it('uses the current date by default', () => {
    const now = new Date()
    const year = now.getFullYear() - 30
    const iso = `${year}-01-01`
    expect(ageInYears(iso)).toBe(30)
  })

  it('agrees with date-fns differenceInYears for any past date', () => {
    const day = 24 * 3600 * 1000
    fc.assert(
      fc.property(
        fc.date({ min: new Date(1900, 0, 1), max: new Date(2100, 0, 1), noInvalidDate: true }),
        fc.integer({ min: 0, max: 150 * 366 }),
        (birth, daysLater) => {
          const dob = new Date(birth.getFullYear(), birth.getMonth(), birth.getDate())
          const today = new Date(dob.getTime() + daysLater * day + 12 * 3600 * 1000)
          const iso = `${dob.getFullYear()}-${String(dob.getMonth() + 1).padStart(2, '0')}-${String(dob.getDate()).padStart(2, '0')}`
          const expectedAge = differenceInYears(
            new Date(today.getFullYear(), today.getMonth(), today.getDate()),
            dob,
          )
          const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone
          expect(ageInYears(iso, today, localZone)).toBe(expectedAge)
        },
      ),
      { numRuns: 300 },
    )
  })
})
