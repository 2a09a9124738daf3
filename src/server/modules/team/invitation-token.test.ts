import { describe, expect, it } from 'vitest'
import { invitationLookupInput } from '../../../shared/schemas/team'
import {
  hashInvitationToken,
  hospitalIdOfToken,
  invitationExpiry,
  invitationUrl,
  newInvitationToken,
} from './invitation-token'

describe('invitation tokens', () => {
  const hospitalId = '3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b'

  it('name their hospital, pass the shared schema, and are stored only as a SHA-256', () => {
    const { token, hash } = newInvitationToken(hospitalId)
    expect(hospitalIdOfToken(token)).toBe(hospitalId)
    expect(invitationLookupInput.parse({ token }).token).toBe(token)
    expect(hash).toMatch(/^[0-9a-f]{64}$/)
    expect(hash).toBe(hashInvitationToken(token))
    expect(newInvitationToken(hospitalId).token).not.toBe(token)
  })

  it('travel in the link’s fragment and last 7 days', () => {
    expect(invitationUrl('https://crm.example.in/', 'abc.def')).toBe(
      'https://crm.example.in/invite#abc.def',
    )
    const from = new Date('2026-11-27T10:00:00Z')
    expect(invitationExpiry(from).toISOString()).toBe('2026-12-04T10:00:00.000Z')
  })
})
