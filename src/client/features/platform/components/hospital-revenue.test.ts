import { describe, expect, it } from 'vitest'
import { hospitalRevenue } from './hospital-revenue'

describe("a hospital card's revenue (issue 40 item 19)", () => {
  it('a trial hospital shows no revenue; a paying one its monthly amount', () => {
    const h = { monthlyRevenue: 2_400_000, currency: 'INR' }
    expect(hospitalRevenue({ ...h, subscriptionStatus: 'trial' })).toBe('None (trial)')
    expect(hospitalRevenue({ ...h, subscriptionStatus: 'active' })).toMatch(/24,000.*\/month$/)
  })
})
