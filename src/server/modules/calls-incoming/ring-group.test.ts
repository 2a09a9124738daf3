import { describe, expect, it } from 'vitest'
import { exotelReported } from './exotel-incoming'
import { resolveRingGroup } from './ring-group'
import { dialTwiml } from './twilio-incoming'

const staff = [
  { id: 'u-admin', name: 'Dr. Meera Iyer', role: 'admin' },
  { id: 'u-rec-2', name: 'Pooja Nair', role: 'receptionist' },
  { id: 'u-rec-1', name: 'Anjali Desai', role: 'receptionist' },
  { id: 'u-doc', name: 'Dr. Rohan Mehta', role: 'doctor' },
]

describe('the ring group', () => {
  it('defaults to receptionists with a verified phone, in a stable order', () => {
    const phones = new Map([
      ['u-rec-2', '+919820000002'],
      ['u-rec-1', '+919820000001'],
      ['u-admin', '+919820000009'],
    ])
    const ring = resolveRingGroup(staff, [], phones)
    expect(ring.members.map((m) => m.userId)).toEqual(['u-rec-1', 'u-rec-2'])
    expect(ring.phones).toEqual(['+919820000001', '+919820000002'])
  })

  it('falls back to admins with a phone, then to the pop-up only', () => {
    expect(resolveRingGroup(staff, [], new Map([['u-admin', '+919820000009']]))).toMatchObject({
      members: [{ userId: 'u-admin' }],
      phones: ['+919820000009'],
    })
    const none = resolveRingGroup(staff, [], new Map())
    expect(none.members.map((m) => m.userId)).toEqual(['u-rec-1', 'u-rec-2'])
    expect(none.phones).toEqual([])
    const adminsOnly = resolveRingGroup([staff[0]!, staff[3]!], [], new Map())
    expect(adminsOnly.members.map((m) => m.userId)).toEqual(['u-admin'])
  })

  it('takes the named staff in order, once each, leaving out anyone no longer on the staff', () => {
    const phones = new Map([['u-doc', '+919820000004']])
    const ring = resolveRingGroup(staff, ['u-doc', 'u-gone', 'u-rec-2', 'u-doc'], phones)
    expect(ring.members.map((m) => m.userId)).toEqual(['u-doc', 'u-rec-2'])
    expect(ring.phones).toEqual(['+919820000004'])
  })
})

describe('providers’ words', () => {
  it('reads Exotel’s CallType after the Connect applet', () => {
    expect(exotelReported({ CallType: 'completed' })).toBe('completed')
    expect(exotelReported({ CallType: 'incomplete' })).toBe('no-answer')
    expect(exotelReported({ CallType: 'client-hangup' })).toBe('no-answer')
    expect(exotelReported({ CallStatus: 'busy' })).toBe('busy')
    expect(exotelReported({})).toBeNull()
  })

  it('answers TwiML with each phone, escaped URLs, or an apology when nobody can be rung', () => {
    const ring = { members: [], phones: ['+919820000001', '+919820000002'] }
    const twiml = dialTwiml({
      ring,
      callerId: '+918047120002',
      url: 'https://crm.example/a&b',
      record: true,
    })
    expect(twiml).toContain('<Dial callerId="+918047120002"')
    expect(twiml).toContain('record="record-from-answer-dual"')
    expect(twiml).toContain('action="https://crm.example/a&amp;b?step=dial"')
    expect(twiml.match(/<Number /g)).toHaveLength(2)
    const sorry = dialTwiml({
      ring: { members: [], phones: [] },
      callerId: '+91',
      url: 'x',
      record: false,
    })
    expect(sorry).toContain('<Hangup/>')
    expect(sorry).not.toContain('<Dial')
  })
})
