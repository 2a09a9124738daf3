import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { voiceSecretContext } from '../../src/server/modules/calls/voice-registry'
import { encryptSecret } from '../../src/server/secrets/secrets'
import { callsResponse } from '../../src/shared/schemas/calls'
import {
  callActivities,
  callCommunications,
  FAST_VOICE,
  leadWithPhone,
  mobileEnding,
  send,
  setCallingHours,
  startCall,
  verifyMyPhone,
} from '../support/calls'
import { type FakeExotel, startFakeExotel } from '../support/fakes/exotel'
import { expectError } from '../support/http'
import { login } from '../support/login'
import { createTestApp, demoEmail, hospitalIdOf, type TestApp } from '../support/test-app'

// Issue 41: a hospital with Exotel places calls through it (the fake checks the documented
// request), and a provider's refusal (credentials, balance) is a 502 with the reason in plain
// words and a call kept as failed with that reason: no Communication, no activity, and the
// staff member free to call again.

const SID = 'sanjeevani1'
const API_KEY = 'exotel-key-1'
const API_TOKEN = 'exotel-token-1'
const EXOPHONE = '+918047112233'

let t: TestApp
let fake: FakeExotel
let admin: string
let hospitalA: string
let staffPhone: string

async function useExotel(token: string) {
  const secrets = { apiToken: encryptSecret(token, voiceSecretContext(hospitalA, 'apiToken')) }
  await t.db.execute(sql`
    insert into voice_settings (hospital_id, provider, settings, secrets, caller_id, region,
      calling_hours_start, calling_hours_end)
    values (${hospitalA}, 'exotel', ${JSON.stringify({ accountSid: SID, apiKey: API_KEY })}::jsonb,
      ${JSON.stringify(secrets)}::jsonb, ${EXOPHONE}, 'mumbai', '00:00', '00:00')
    on conflict (hospital_id) do update set provider = excluded.provider,
      settings = excluded.settings, secrets = excluded.secrets, caller_id = excluded.caller_id,
      region = excluded.region`)
}

beforeAll(async () => {
  fake = await startFakeExotel({
    [SID]: { apiKey: API_KEY, apiToken: API_TOKEN, exophones: [EXOPHONE] },
  })
  t = await createTestApp({ voice: { ...FAST_VOICE, exotelUrl: fake.url } })
  admin = await login(t.app, demoEmail('admin'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  await setCallingHours(t, hospitalA, '00:00', '00:00')
  staffPhone = `+91${await verifyMyPhone(t, admin, mobileEnding(1, 45))}`
  await useExotel(API_TOKEN)
})
afterAll(async () => {
  await t?.close()
  await fake?.close()
})

describe('Exotel', () => {
  it('rings the staff phone first, then the customer, from the hospital’s ExoPhone', async () => {
    const lead = await leadWithPhone(t, admin, 1)
    const started = await startCall(t, admin, { leadId: lead.id })
    expect(started).toMatchObject({ provider: 'exotel', sandbox: false, status: 'ringing' })
    expect(started.answeredAt).toBeNull()
    const placed = fake.calls.at(-1)
    expect(placed).toMatchObject({ from: staffPhone, to: lead.phone, callerId: EXOPHONE })
    expect(placed?.params.CustomField).toBe(started.id)
    expect(placed?.params.Record).toBeUndefined()
    expect((await callActivities(t, started.id)).map((a) => a.activity_type)).toEqual([
      'call_start',
    ])
    // Still live: the next call waits for this one to end (its events come in a later slice).
    const other = await leadWithPhone(t, admin, 2)
    expectError(await send(t.app, admin, 'POST', '/api/calls', { leadId: other.id }), 409)
    await t.db.execute(sql`update calls set status = 'completed' where id = ${started.id}`)
  })

  it('a refusal for balance is a 502 in plain words, kept as a failed call', async () => {
    const lead = await leadWithPhone(t, admin, 3)
    fake.outcomes.set(lead.phone, 'balance')
    const body = expectError(
      await send(t.app, admin, 'POST', '/api/calls', { leadId: lead.id }),
      502,
      'UPSTREAM',
    )
    expect(body.message).not.toContain('Insufficient balance: please recharge')
    expect(body.message.length).toBeGreaterThan(10)
    const list = await send(t.app, admin, 'GET', `/api/calls?leadId=${lead.id}`)
    const [failed] = callsResponse.parse(list.json()).calls
    expect(failed).toMatchObject({
      status: 'failed',
      outcome: 'failed',
      failureReason: body.message,
    })
    expect(await callCommunications(t, failed?.id ?? '')).toHaveLength(0)
    expect(await callActivities(t, failed?.id ?? '')).toHaveLength(0)
  })

  it('wrong credentials are a 502 too, and the staff member may call again at once', async () => {
    await useExotel('not-the-token')
    try {
      const lead = await leadWithPhone(t, admin, 4)
      const body = expectError(
        await send(t.app, admin, 'POST', '/api/calls', { leadId: lead.id }),
        502,
        'UPSTREAM',
      )
      expect(body.message).toMatch(/Exotel/)
      expect(JSON.stringify(body)).not.toContain('not-the-token')
    } finally {
      await useExotel(API_TOKEN)
    }
    const lead = await leadWithPhone(t, admin, 5)
    expect((await startCall(t, admin, { leadId: lead.id })).status).toBe('ringing')
  })
})
