import { describe, expect, it } from 'vitest'
import {
  canMoveLeadGen,
  estimateLeads,
  isValidDailyBudget,
  LEAD_GEN_BUDGET_MAX,
  LEAD_GEN_BUDGET_MIN,
  LEAD_GEN_BUDGET_STEP,
  oneTimeCostRupees,
} from './lead-generation'

describe('estimateLeads', () => {
  it('at the slider minimum, ₹1,000: 20–40 a day, 600–1,200 a month', () => {
    expect(estimateLeads(1000)).toEqual({
      perDayMin: 20,
      perDayMax: 40,
      perMonthMin: 600,
      perMonthMax: 1200,
    })
  })

  it('at ₹10,000 the high estimate reaches the 400 cap exactly', () => {
    expect(estimateLeads(10000)).toEqual({
      perDayMin: 200,
      perDayMax: 400,
      perMonthMin: 6000,
      perMonthMax: 12000,
    })
  })

  it('at ₹10,500 the high estimate stays capped at 400', () => {
    expect(estimateLeads(10500).perDayMax).toBe(400)
    expect(estimateLeads(10500).perDayMin).toBe(210)
  })

  it('at the slider maximum, ₹20,000: both capped at 400 (12,000 a month)', () => {
    expect(estimateLeads(20000)).toEqual({
      perDayMin: 400,
      perDayMax: 400,
      perMonthMin: 12000,
      perMonthMax: 12000,
    })
  })

  it('floors: ₹1,500 gives 30–60, ₹1,010 would give 20–40', () => {
    expect(estimateLeads(1500)).toMatchObject({ perDayMin: 30, perDayMax: 60 })
    expect(estimateLeads(1010)).toMatchObject({ perDayMin: 20, perDayMax: 40 })
    expect(estimateLeads(1049)).toMatchObject({ perDayMin: 20, perDayMax: 41 })
  })

  it('on every slider step: min ≤ max ≤ 400 and monthly is 30 times daily', () => {
    for (let b = LEAD_GEN_BUDGET_MIN; b <= LEAD_GEN_BUDGET_MAX; b += LEAD_GEN_BUDGET_STEP) {
      const e = estimateLeads(b)
      expect(e.perDayMin).toBeLessThanOrEqual(e.perDayMax)
      expect(e.perDayMax).toBeLessThanOrEqual(400)
      expect(e.perMonthMin).toBe(e.perDayMin * 30)
      expect(e.perMonthMax).toBe(e.perDayMax * 30)
    }
  })
})

describe('isValidDailyBudget', () => {
  it('accepts the ends and every 500 step between', () => {
    expect(isValidDailyBudget(1000)).toBe(true)
    expect(isValidDailyBudget(1500)).toBe(true)
    expect(isValidDailyBudget(19500)).toBe(true)
    expect(isValidDailyBudget(20000)).toBe(true)
  })

  it('refuses below, above, off-step and fractions', () => {
    for (const b of [0, 500, 999, 1001, 1250, 20001, 20500, 1500.5, Number.NaN, Infinity])
      expect(isValidDailyBudget(b), String(b)).toBe(false)
  })
})

describe('oneTimeCostRupees', () => {
  it('adds ₹1,000 for the creative and ₹5,000 for video editing', () => {
    expect(oneTimeCostRupees({ needsCreative: false, needsVideoEditing: false })).toBe(0)
    expect(oneTimeCostRupees({ needsCreative: true, needsVideoEditing: false })).toBe(1000)
    expect(oneTimeCostRupees({ needsCreative: false, needsVideoEditing: true })).toBe(5000)
    expect(oneTimeCostRupees({ needsCreative: true, needsVideoEditing: true })).toBe(6000)
  })
})

describe('canMoveLeadGen', () => {
  it('follows requested → approved → active ⇄ paused → completed', () => {
    expect(canMoveLeadGen('requested', 'approved')).toBe(true)
    expect(canMoveLeadGen('approved', 'active')).toBe(true)
    expect(canMoveLeadGen('active', 'paused')).toBe(true)
    expect(canMoveLeadGen('paused', 'active')).toBe(true)
    expect(canMoveLeadGen('paused', 'completed')).toBe(true)
    expect(canMoveLeadGen('active', 'completed')).toBe(true)
  })

  it('refuses skips, going back and leaving completed', () => {
    expect(canMoveLeadGen('requested', 'active')).toBe(false)
    expect(canMoveLeadGen('requested', 'completed')).toBe(false)
    expect(canMoveLeadGen('approved', 'requested')).toBe(false)
    expect(canMoveLeadGen('completed', 'active')).toBe(false)
    expect(canMoveLeadGen('active', 'active')).toBe(false)
  })
})
