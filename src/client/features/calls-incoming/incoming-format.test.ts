import { describe, expect, it } from 'vitest'
import { normalizeMobilePhone } from '@/shared/phone'
import { contactHref, incomingTitle, shortDayTime, unknownMobile, whoLine } from './incoming-format'

describe('the incoming pop-up’s words', () => {
  it('names the caller as the issue says: patient number, new lead, or lead', () => {
    expect(whoLine({ patientNumber: 'SMH-000123', newLead: false, leadId: 'l1' })).toBe(
      'Patient SMH-000123',
    )
    expect(whoLine({ patientNumber: null, newLead: true, leadId: 'l1' })).toBe('New lead')
    expect(whoLine({ patientNumber: null, newLead: false, leadId: 'l1' })).toBe('Lead')
  })

  it('shows the day in the hospital’s zone, and the call’s state', () => {
    expect(shortDayTime('2026-12-03T05:30:00Z', 'Asia/Kolkata')).toBe('3 Dec, 11:00 AM')
    expect(incomingTitle('ringing')).toBe('Incoming call')
    expect(incomingTitle('in-progress')).toBe('Call answered')
    expect(incomingTitle('no-answer')).toBe('Missed call')
    expect(incomingTitle('completed')).toBe('Call ended')
  })

  it('links the patient first, else the lead', () => {
    const paths = { leads: '/leads', patients: '/patients' }
    expect(contactHref({ patientId: 'p1', leadId: 'l1' }, paths)).toBe('/patients?open=p1')
    expect(contactHref({ patientId: null, leadId: 'l1' }, paths)).toBe('/leads?open=l1')
    expect(contactHref({ patientId: null, leadId: null }, paths)).toBeNull()
  })

  it('makes a valid Indian mobile the sandbox answers', () => {
    for (const r of [0, 0.5, 0.999]) {
      const phone = unknownMobile(() => r)
      expect(normalizeMobilePhone(phone)).toBe(`+91${phone}`)
      expect(Number(phone.at(-1))).toBeLessThan(7)
    }
  })
})
