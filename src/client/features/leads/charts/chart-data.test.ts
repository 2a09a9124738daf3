import { describe, expect, it } from 'vitest'
import { type LeadSource, leadSources } from '@/shared/lead-labels'
import type { LeadTrends } from '@/shared/schemas/leads'
import { activeSources, toDayRows, toFunnelRows } from './chart-data'

const zeros = () => Object.fromEntries(leadSources.map((s) => [s, 0])) as Record<LeadSource, number>
const day = (date: string, counts: Partial<Record<LeadSource, number>> = {}) => ({
  date,
  counts: { ...zeros(), ...counts },
})

describe('toDayRows', () => {
  it('keeps the order and the counts, adds labels and the day’s total', () => {
    const days: LeadTrends['days'] = [
      day('2026-02-28', { 'meta-facebook': 3, referral: 1 }),
      day('2026-03-01'),
    ]
    expect(toDayRows(days)).toEqual([
      {
        ...zeros(),
        'meta-facebook': 3,
        referral: 1,
        date: '2026-02-28',
        label: 'Feb 28',
        longLabel: 'Feb 28, 2026',
        total: 4,
      },
      {
        ...zeros(),
        date: '2026-03-01',
        label: 'Mar 1',
        longLabel: 'Mar 01, 2026',
        total: 0,
      },
    ])
  })

  it('labels the calendar day it was given, whatever the browser’s zone', () => {
    // Never parsed as UTC midnight, which west of UTC is the evening before.
    expect(toDayRows([day('2026-01-01')])[0]).toMatchObject({
      label: 'Jan 1',
      longLabel: 'Jan 01, 2026',
    })
  })
})

describe('activeSources', () => {
  it('lists the sources with any lead, in the contract’s order', () => {
    const days = [day('2026-03-01', { 'walk-in': 1 }), day('2026-03-02', { 'meta-facebook': 2 })]
    expect(activeSources(days)).toEqual(['meta-facebook', 'walk-in'])
    expect(activeSources([day('2026-03-01')])).toEqual([])
  })
})

describe('toFunnelRows', () => {
  it('gives each stage its label, count and whole percent of the first stage', () => {
    expect(toFunnelRows({ new: 7, contacted: 5, followUp: 4, converted: 3 })).toEqual([
      { stage: 'new', label: 'New', count: 7, pct: 100 },
      { stage: 'contacted', label: 'Contacted', count: 5, pct: 71 },
      { stage: 'followUp', label: 'Follow-up', count: 4, pct: 57 },
      { stage: 'converted', label: 'Converted', count: 3, pct: 43 },
    ])
  })

  it('is 0% everywhere without leads (no division by zero)', () => {
    expect(
      toFunnelRows({ new: 0, contacted: 0, followUp: 0, converted: 0 }).map((r) => r.pct),
    ).toEqual([0, 0, 0, 0])
  })
})
