import { describe, expect, it } from 'vitest'
import { contactHref, lastContactText, leadInitials, trendTexts } from './lead-format'

describe('leadInitials', () => {
  it('takes the first and last words, skipping titles', () => {
    expect(leadInitials('Meera Joshi')).toBe('MJ')
    expect(leadInitials('Dr. Rajesh Kumar Iyer')).toBe('RI')
    expect(leadInitials('anand')).toBe('A')
    expect(leadInitials('  ')).toBe('?')
  })
})

describe('lastContactText', () => {
  it("says 'Never' without a contact and 'x ago' with one", () => {
    const now = new Date('2026-05-10T10:00:00Z')
    expect(lastContactText(null, now)).toBe('Never')
    expect(lastContactText('2026-05-10T07:00:00Z', now)).toBe('3 hours ago')
  })
})

describe('trendTexts', () => {
  it("uses the spec's wording with computed figures", () => {
    expect(
      trendTexts({ totalChangePct: 12, newToday: 5, conversionRate: 36, followUpsOverdue: 3 }),
    ).toEqual({
      total: '+12% from last week',
      newLeads: '+5 today',
      converted: '36% conversion rate',
      followUps: '3 urgent require attention',
    })
  })

  it('shows falls, decimals, and weeks with nothing to compare', () => {
    const t = trendTexts({
      totalChangePct: -8,
      newToday: 0,
      conversionRate: 12.5,
      followUpsOverdue: 0,
    })
    expect(t.total).toBe('-8% from last week')
    expect(t.newLeads).toBe('+0 today')
    expect(t.converted).toBe('12.5% conversion rate')
    expect(t.followUps).toBe('None overdue')
    const none = { totalChangePct: null, newToday: 1, conversionRate: 0, followUpsOverdue: 1 }
    expect(trendTexts(none).total).toBe('No leads the week before')
    expect(trendTexts(none).followUps).toBe('1 urgent require attention')
  })
})

describe('contactHref', () => {
  it('builds tel:, wa.me, mailto: and sms: links', () => {
    expect(contactHref.call('+919876543210')).toBe('tel:+919876543210')
    expect(contactHref.whatsapp('+919876543210')).toBe('https://wa.me/919876543210')
    expect(contactHref.email('a@b.in')).toBe('mailto:a@b.in')
    expect(contactHref.sms('+919876543210')).toBe('sms:+919876543210')
  })
})
