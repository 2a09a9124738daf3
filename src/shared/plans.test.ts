import { describe, expect, it } from 'vitest'
import { formatRupees } from './money'
import { addOnCategories, findPlan, planIds, planMonthlyRupees, plans } from './plans'

describe('plans', () => {
  it('has the five plans of the spec, in order', () => {
    expect(plans.map((p) => p.name)).toEqual([
      'Starter',
      'Professional',
      'Enterprise',
      'Hospital Enterprise',
      'Custom Enterprise',
    ])
    expect(plans.map((p) => p.id)).toEqual([...planIds])
  })

  it('carries every figure of the spec plan table', () => {
    const table = plans.map((p) => [
      p.name,
      p.price?.monthly,
      p.price?.annualMonthly,
      p.price?.annualSaving,
      p.price?.list,
    ])
    expect(table).toEqual([
      ['Starter', 2999, 2399, 7200, 4999],
      ['Professional', 7999, 6399, 19200, 12999],
      ['Enterprise', 15999, 12799, 38400, 24999],
      ['Hospital Enterprise', 29999, 23999, 72000, 45999],
      ['Custom Enterprise', undefined, undefined, undefined, undefined],
    ])
  })

  it('annual billing is 20% off (rounded down to the rupee) and the saving is twelve months of the difference', () => {
    for (const plan of plans) {
      if (!plan.price) continue
      const { monthly, annualMonthly, annualSaving, list } = plan.price
      expect(annualMonthly).toBe(Math.floor(monthly * 0.8))
      expect(annualSaving).toBe((monthly - annualMonthly) * 12)
      expect(list).toBeGreaterThan(monthly)
    }
  })

  it('has the ribbons, limits and trials of the spec', () => {
    expect(findPlan('professional')?.ribbon).toBe('Most Popular')
    expect(findPlan('enterprise')?.ribbon).toBe('Best Value')
    expect(plans.filter((p) => p.ribbon).length).toBe(2)
    expect(plans.map((p) => [p.maxUsers, p.maxPatients, p.trialDays])).toEqual([
      [5, 500, 14],
      [20, 2000, 30],
      [50, 10000, 60],
      [null, null, null],
      [null, null, null],
    ])
    expect(findPlan('enterprise')?.features).toContain('Attachments up to 50MB')
    expect(findPlan('hospital_enterprise')?.features).toEqual(
      expect.arrayContaining([
        'Unlimited users',
        'Unlimited patients',
        '24/7 success manager',
        '50+ role permissions',
      ]),
    )
  })

  it('gives the monthly revenue of a plan for a billing cycle', () => {
    expect(planMonthlyRupees('starter')).toBe(2999)
    expect(planMonthlyRupees('hospital_enterprise', 'annual')).toBe(23999)
    expect(planMonthlyRupees('custom_enterprise')).toBeNull()
    expect(planMonthlyRupees('no-such-plan')).toBeNull()
  })
})

describe('add-ons', () => {
  it('has the four categories of the spec', () => {
    expect(addOnCategories.map((c) => c.name)).toEqual([
      'Marketing & Creative',
      'Technical',
      'Training & Support',
      'Growth Acceleration',
    ])
  })

  it('lists every add-on price of the spec exactly once', () => {
    const all = addOnCategories.flatMap((c) =>
      c.addOns.map((a) => [a.name, a.price, a.unit, a.from]),
    )
    expect(all).toEqual([
      ['Video editing', 999, 'per video', false],
      ['Creative design', 499, 'per design', false],
      ['Content writing', 299, 'per article', false],
      ['Photography', 2999, 'per session', false],
      ['Data migration', 4999, null, false],
      ['Custom integrations', 9999, null, true],
      ['Mobile app', 49999, null, false],
      ['Analytics setup', 7999, null, false],
      ['Advanced training', 999, 'per session', false],
      ['Consulting', 2999, 'per day', false],
      ['24/7 premium support', 1999, 'per month', false],
      ['Compliance audit', 9999, null, false],
      ['Lead generation boost', 4999, 'per month', false],
      ['SEO', 2999, 'per month', false],
      ['Reputation management', 1999, 'per month', false],
    ])
    const ids = addOnCategories.flatMap((c) => c.addOns.map((a) => a.id))
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('shows rupees with Indian grouping', () => {
    expect(formatRupees(49999)).toBe('₹49,999')
    expect(formatRupees(100000)).toBe('₹1,00,000')
  })
})
