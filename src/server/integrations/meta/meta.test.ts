import { describe, expect, it } from 'vitest'
import { appSecretProof, graphErrorFrom } from './graph'
import { mapGraphLead } from './map-lead'
import { sameSecret, signMetaBody, verifyMetaSignature } from './signature'

const lead = (fields: Record<string, string>, extra: Record<string, string> = {}) => ({
  id: '1234567890123456',
  field_data: Object.entries(fields).map(([name, value]) => ({ name, values: [value] })),
  ...extra,
})

describe('mapGraphLead (spec §3)', () => {
  it('falls back for the name and the service interest', () => {
    const mapped = mapGraphLead(lead({ phone_number: '098765 43210' }), '55')
    expect(mapped).toEqual({
      ok: true,
      lead: {
        name: 'Lead 123456',
        phone: '+919876543210',
        email: null,
        serviceInterest: 'General Inquiry',
        campaign: null,
        source: 'meta-facebook',
        metaLeadId: '1234567890123456',
        metaFormId: '55',
        enquiredAt: null,
      },
    })
    const withMessage = mapGraphLead(lead({ phone_number: '9876543210', message: 'Back pain' }))
    expect(withMessage.ok && withMessage.lead.serviceInterest).toBe('Back pain')
  })

  it('reads when the person enquired from created_time (for priority scoring)', () => {
    const at = (created_time: string) => {
      const m = mapGraphLead(lead({ phone_number: '9876543210' }, { created_time }))
      return m.ok ? m.lead.enquiredAt?.toISOString() : 'refused'
    }
    expect(at('2026-11-20T10:15:00+0000')).toBe('2026-11-20T10:15:00.000Z')
    expect(at('2026-11-20T10:15:00+0530')).toBe('2026-11-20T04:45:00.000Z')
    expect(at('yesterday')).toBeUndefined()
  })

  it('reads Instagram from the platform, the campaign from campaign_name or ad_name', () => {
    for (const platform of ['ig', 'instagram', 'IG']) {
      const m = mapGraphLead(lead({ phone_number: '9876543210' }, { platform, ad_name: 'Ad 1' }))
      expect(m.ok && [m.lead.source, m.lead.campaign]).toEqual(['meta-instagram', 'Ad 1'])
    }
    const fb = mapGraphLead(
      lead({ phone_number: '9876543210' }, { platform: 'fb', campaign_name: 'C' }),
    )
    expect(fb.ok && [fb.lead.source, fb.lead.campaign]).toEqual(['meta-facebook', 'C'])
  })

  it('refuses a lead without a valid phone or id, strips control characters', () => {
    expect(mapGraphLead(lead({ full_name: 'A', phone_number: '12' })).ok).toBe(false)
    expect(mapGraphLead(lead({ full_name: 'A' })).ok).toBe(false)
    expect(mapGraphLead({ ...lead({ phone_number: '9876543210' }), id: '../me' }).ok).toBe(false)
    const m = mapGraphLead(lead({ full_name: 'Ra\u0000vi\u0007', phone_number: '9876543210' }))
    expect(m.ok && m.lead.name).toBe('Ravi')
  })
})

describe('signatures', () => {
  it('verifies X-Hub-Signature-256 over the raw bytes only', () => {
    const body = Buffer.from('{"object":"page"}')
    expect(verifyMetaSignature(body, signMetaBody(body, 's3cret'), 's3cret')).toBe(true)
    expect(
      verifyMetaSignature(
        body,
        signMetaBody(body, 's3cret').toUpperCase().replace('SHA256', 'sha256'),
        's3cret',
      ),
    ).toBe(true)
    expect(verifyMetaSignature(body, signMetaBody(body, 'other'), 's3cret')).toBe(false)
    expect(
      verifyMetaSignature(
        Buffer.from('{"object":"page"} '),
        signMetaBody(body, 's3cret'),
        's3cret',
      ),
    ).toBe(false)
    for (const bad of [undefined, '', 'sha1=abc', 'sha256=', `sha256=${'0'.repeat(63)}`, ['a']]) {
      expect(verifyMetaSignature(body, bad, 's3cret')).toBe(false)
    }
    expect(sameSecret('a', 'a')).toBe(true)
    expect(sameSecret('a', 'ab')).toBe(false)
  })

  it('computes appsecret_proof as HMAC-SHA256 of the token (hex)', () => {
    expect(appSecretProof('token', 'secret')).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe('graph errors by code', () => {
  const body = (code: number) => ({ error: { message: 'm', type: 't', code, fbtrace_id: 'x' } })
  it('190 → auth, 4/17/32/613 → rate limited, others → provider, with the spec prefix', () => {
    expect(graphErrorFrom(400, body(190)).kind).toBe('auth')
    for (const code of [4, 17, 32, 613])
      expect(graphErrorFrom(400, body(code)).kind).toBe('rate_limited')
    const other = graphErrorFrom(400, body(100))
    expect([other.kind, other.message]).toEqual(['provider', 'Meta API Error: m'])
    expect(graphErrorFrom(503, 'oops').message).toBe('Meta API Error: HTTP 503')
  })
})
