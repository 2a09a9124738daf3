import { sql } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { signMetaBody } from '../../src/server/integrations/meta/signature'
import {
  REFUSALS_PER_HOSPITAL,
  REFUSALS_PER_IP,
} from '../../src/server/modules/messaging-webhooks/refusals'
import * as secrets from '../../src/server/secrets/secrets'
import { expectError } from '../support/http'
import {
  configureMessaging,
  postTwilio,
  twilioConnection,
  whatsappDelivery,
} from '../support/messaging-webhooks'
import { createTestApp, hospitalIdOf, queryRows, type TestApp } from '../support/test-app'

// Issue 39, item 14: anonymous webhook requests cost nothing. The WhatsApp handshake finds its
// hospital by the verify token's digest and a delivery by the index of proven ids, so with 50
// hospitals on Meta an anonymous request decrypts at most the one hospital the index names
// (decryptSecret is counted). Refused deliveries are counted per source IP and per hospital
// across instances: beyond the limit they get 429, while correctly signed deliveries keep
// being accepted.

vi.mock('../../src/server/secrets/secrets', async (importOriginal) => {
  const real = await importOriginal<typeof secrets>()
  return { ...real, decryptSecret: vi.fn(real.decryptSecret) }
})

const HOSPITALS = 50
let t: TestApp
const configured: {
  hospitalId: string
  phone: string
  waba: string
  secret: string
  verify: string
}[] = []

beforeAll(async () => {
  t = await createTestApp()
  for (let i = 0; i < HOSPITALS; i++) {
    const [row] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into hospitals (name, email) values (${`Cost Clinic ${i}`}, ${`cost${i}@clinic.test`})
          returning id`,
    )
    if (!row) throw new Error('no hospital')
    const n = String(i).padStart(3, '0')
    const h = {
      hospitalId: row.id,
      phone: `1065403577${n}`,
      waba: `4195612577${n}`,
      secret: `app-secret-of-cost-clinic-${n}`,
      verify: `verify-token-of-cost-clinic-${n}`,
    }
    await configureMessaging(t.db, h.hospitalId, {
      whatsapp: {
        provider: 'meta',
        settings: { phoneNumberId: h.phone, businessAccountId: h.waba },
        secrets: { accessToken: `EAAG-cost-${n}`, appSecret: h.secret, verifyToken: h.verify },
      },
    })
    configured.push(h)
  }
})
afterAll(async () => {
  await t?.close()
})

const decrypt = vi.mocked(secrets.decryptSecret)
beforeEach(() => {
  decrypt.mockClear()
})

/** The hospitals whose messaging secrets were decrypted since the last clear. */
function decryptedHospitals(): Set<string> {
  const found = new Set<string>()
  for (const [, context] of decrypt.mock.calls) {
    const m = /^messaging:([0-9a-f-]{36}):/.exec(context ?? '')
    if (m?.[1]) found.add(m[1])
  }
  return found
}

const handshake = (token: string, ip = '198.51.100.1') =>
  t.app.inject({
    method: 'GET',
    url: `/api/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=77`,
    remoteAddress: ip,
  })

function post(body: unknown, secret: string | null, ip: string): Promise<LightMyRequestResponse> {
  const raw = JSON.stringify(body)
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (secret) headers['x-hub-signature-256'] = signMetaBody(raw, secret)
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/whatsapp',
    headers,
    payload: raw,
    remoteAddress: ip,
  })
}

const templateUpdate = (waba: string) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: waba,
      changes: [
        {
          field: 'message_template_status_update',
          value: {
            event: 'APPROVED',
            message_template_id: 1,
            message_template_name: 'no_such_template',
            message_template_language: 'en_US',
            reason: 'NONE',
          },
        },
      ],
    },
  ],
})

describe('anonymous requests decrypt at most one hospital', () => {
  it('the handshake decrypts no settings, whichever hospital (or none) the token is', async () => {
    const last = configured.at(-1)
    if (!last) throw new Error('none configured')
    const ok = await handshake(last.verify)
    expect(ok.statusCode, ok.body).toBe(200)
    expect(ok.body).toBe('77')
    expectError(await handshake('a-token-nobody-configured'), 403)
    expect(decryptedHospitals().size).toBe(0)
  })

  it('an unsigned or forged status delivery decrypts at most the hospital the index names', async () => {
    const h = configured[37]
    if (!h) throw new Error('none configured')
    const statuses = whatsappDelivery(h.phone, {
      statuses: [{ id: 'wamid.cost1', status: 'delivered', timestamp: '1', recipient_id: '1' }],
    })
    expectError(await post(statuses, null, '198.51.100.2'), 403)
    expectError(await post(templateUpdate(h.waba), null, '198.51.100.2'), 403)
    expect(decryptedHospitals().size).toBe(0)
    // Signed with a key of nobody's: an account nobody proved decrypts nothing; a routed one,
    // only its own hospital.
    expectError(await post(templateUpdate('999999999999'), 'forged-key', '198.51.100.2'), 403)
    expect(decryptedHospitals().size).toBe(0)
    expectError(await post(templateUpdate(h.waba), 'forged-key', '198.51.100.2'), 403)
    expect([...decryptedHospitals()]).toEqual([h.hospitalId])
    decrypt.mockClear()
    const genuine = await post(templateUpdate(h.waba), h.secret, '198.51.100.2')
    expect(genuine.statusCode, genuine.body).toBe(200)
    expect([...decryptedHospitals()].every((id) => id === h.hospitalId)).toBe(true)
  })
})

describe('refused deliveries are rate-limited, signed ones never', () => {
  it("gives 429 to one IP's refusals after the limit, while that IP's signed deliveries are accepted", async () => {
    const ip = '203.0.113.7'
    const h = configured[5]
    if (!h) throw new Error('none configured')
    const statuses = whatsappDelivery(h.phone, {
      statuses: [{ id: 'wamid.cost2', status: 'read', timestamp: '1', recipient_id: '1' }],
    })
    for (let i = 0; i < REFUSALS_PER_IP; i++) {
      const res = await post({ garbage: i }, null, ip)
      expect(res.statusCode).toBe(403)
    }
    const limited = await post({ garbage: 'more' }, null, ip)
    expectError(limited, 429, 'RATE_LIMITED')
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expectError(await handshake('still-guessing', ip), 429)
    // The same source's correctly signed delivery is accepted, again and again.
    for (let i = 0; i < 3; i++) {
      const ok = await post(statuses, h.secret, ip)
      expect(ok.statusCode, ok.body).toBe(200)
    }
    // Another source is not limited by this one's refusals.
    expectError(await post({ garbage: 'elsewhere' }, null, '203.0.113.8'), 403)
    const [count] = await queryRows<{ hits: number }>(
      t.db,
      sql`select hits from rate_limit_hits where key = ${`whatsapp-webhook-refused:ip:${ip}`}`,
    )
    expect(count?.hits).toBe(REFUSALS_PER_IP)
  })

  it("gives 429 to forged deliveries naming one hospital after the limit; that hospital's signed ones still pass", async () => {
    const h = configured[9]
    if (!h) throw new Error('none configured')
    const statuses = whatsappDelivery(h.phone, {
      statuses: [{ id: 'wamid.cost3', status: 'read', timestamp: '1', recipient_id: '1' }],
    })
    // From many addresses (each under its own limit): counted against the hospital.
    for (let i = 0; i < REFUSALS_PER_HOSPITAL; i++) {
      expectError(await post(statuses, 'forged-key', `192.0.2.${i % 200}`), 403)
    }
    expectError(await post(statuses, 'forged-key', '192.0.2.250'), 429, 'RATE_LIMITED')
    const ok = await post(statuses, h.secret, '192.0.2.250')
    expect(ok.statusCode, ok.body).toBe(200)
  })

  it("limits Twilio's refused callbacks per hospital too, never its signed ones", async () => {
    const hospitalId = await hospitalIdOf(t.db, 'smiledental')
    await configureMessaging(t.db, hospitalId, { sms: twilioConnection('cost-twilio-token', '7') })
    const path = `/api/webhooks/twilio/${hospitalId}/status`
    const params = { MessageSid: `SM${'c'.repeat(32)}`, MessageStatus: 'delivered' }
    for (let i = 0; i < REFUSALS_PER_HOSPITAL; i++) {
      expectError(await postTwilio(t.app, path, params, 'wrong-token'), 403)
    }
    expectError(await postTwilio(t.app, path, params, 'wrong-token'), 429, 'RATE_LIMITED')
    const ok = await postTwilio(t.app, path, params, 'cost-twilio-token')
    expect(ok.statusCode, ok.body).toBe(200)
  })
})
