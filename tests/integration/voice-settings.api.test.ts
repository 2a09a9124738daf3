import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { voiceSecretContext } from '../../src/server/modules/calls/voice-registry'
import { decryptSecret } from '../../src/server/secrets/secrets'
import {
  voiceSettingsView,
  voiceTestCallResult,
  type VoiceSettingsView,
} from '../../src/shared/schemas/voice-settings'
import { FAST_VOICE, mobileEnding, send } from '../support/calls'
import { type FakeExotel, startFakeExotel } from '../support/fakes/exotel'
import { type FakeTwilioVoice, startFakeTwilioVoice } from '../support/fakes/twilio-voice'
import { expectError, issuePaths } from '../support/http'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 41: Settings → Integrations → Voice. Members read the provider, hours and recording;
// admins alone see the account (secrets only as set/last 4, the callback token only inside the
// callback URLs), save it (encrypted at rest, a blank secret kept) and place a test call through
// the provider (the fakes check the request), refused in plain words; every change is audited.

const EXOTEL = {
  accountSid: 'sanjeevani-voice',
  apiKey: 'exotel-api-key-0001',
  apiToken: 'exotel-api-token-secret-9876',
  exophone: '+918047112233',
}
const TWILIO = {
  accountSid: `AC${'c'.repeat(32)}`,
  authToken: 'twilio-voice-auth-token-4321',
  number: '+14155550141',
}

let t: TestApp
let exotel: FakeExotel
let twilio: FakeTwilioVoice
let admin: string
let adminB: string
let hospitalA: string
let hospitalB: string

const exotelBody = (overrides: Record<string, unknown> = {}) => ({
  provider: 'exotel',
  accountSid: EXOTEL.accountSid,
  apiKey: EXOTEL.apiKey,
  apiToken: EXOTEL.apiToken,
  region: 'mumbai',
  callerId: '080 4711 2233',
  callingHoursStart: '09:30',
  callingHoursEnd: '20:00',
  recordingEnabled: false,
  ...overrides,
})

async function view(cookie: string): Promise<VoiceSettingsView> {
  const res = await send(t.app, cookie, 'GET', '/api/settings/voice')
  expect(res.statusCode, res.body).toBe(200)
  return voiceSettingsView.strict().parse(res.json())
}

async function save(cookie: string, body: unknown): Promise<VoiceSettingsView> {
  const res = await send(t.app, cookie, 'PUT', '/api/settings/voice', body)
  expect(res.statusCode, res.body).toBe(200)
  return voiceSettingsView.strict().parse(res.json())
}

async function row(hospitalId: string) {
  const [r] = await queryRows<{
    provider: string
    settings: Record<string, string>
    secrets: Record<string, string>
    caller_id: string | null
    callback_token: string
    recording_enabled: boolean
  }>(t.db, sql`select * from voice_settings where hospital_id = ${hospitalId}`)
  return r
}

async function audits(hospitalId: string, action: string) {
  return queryRows<{ summary: string; actor_user_id: string }>(
    t.db,
    sql`select summary, actor_user_id from audit_events
        where hospital_id = ${hospitalId} and action = ${action} order by created_at`,
  )
}

beforeAll(async () => {
  exotel = await startFakeExotel({
    [EXOTEL.accountSid]: {
      apiKey: EXOTEL.apiKey,
      apiToken: EXOTEL.apiToken,
      exophones: [EXOTEL.exophone],
    },
  })
  twilio = await startFakeTwilioVoice({
    [TWILIO.accountSid]: { authToken: TWILIO.authToken, numbers: [TWILIO.number] },
  })
  t = await createTestApp({
    voice: { ...FAST_VOICE, exotelUrl: exotel.url, twilioUrl: twilio.url },
  })
  admin = await login(t.app, demoEmail('admin'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
})
afterAll(async () => {
  await t?.close()
  await exotel?.close()
  await twilio?.close()
})

describe('reading', () => {
  it('without settings: the sandbox, 09:00–21:00, no recording; account only for admins', async () => {
    const a = await view(admin)
    expect(a).toMatchObject({
      provider: 'sandbox',
      sandbox: true,
      callerId: null,
      callingHoursStart: '09:00',
      callingHoursEnd: '21:00',
      recordingEnabled: false,
      canManage: true,
      account: { apiToken: { set: false }, authToken: { set: false } },
    })
    for (const role of ['doctor', 'nurse', 'receptionist', 'viewer'] as const) {
      const v = await view(await login(t.app, demoEmail(role)))
      expect(v).toMatchObject({ provider: 'sandbox', canManage: false, account: null })
      expect(v.callbackUrls).toBeNull()
    }
    expectError(await send(t.app, undefined, 'GET', '/api/settings/voice'), 401)
  })
})

describe('saving', () => {
  it('only admins save or test-call; the other roles get 403 and nothing changes', async () => {
    for (const role of ['doctor', 'nurse', 'receptionist', 'viewer'] as const) {
      const cookie = await login(t.app, demoEmail(role))
      expectError(await send(t.app, cookie, 'PUT', '/api/settings/voice', exotelBody()), 403)
      const phone = mobileEnding(1)
      const test = await send(t.app, cookie, 'POST', '/api/settings/voice/test-call', { phone })
      expectError(test, 403)
    }
    expect(await row(hospitalA)).toBeUndefined()
  })

  it('every bad field is a 400 with its own message, and nothing is stored', async () => {
    const bad = exotelBody({
      accountSid: 'bad sid!',
      apiKey: '',
      apiToken: 'has spaces in it',
      region: 'delhi',
      callerId: 'not a number',
      callingHoursStart: '25:00',
      callingHoursEnd: '9am',
      recordingEnabled: 'yes',
    })
    const res = await send(t.app, admin, 'PUT', '/api/settings/voice', bad)
    expect(issuePaths(res)).toEqual([
      'accountSid',
      'apiKey',
      'apiToken',
      'callerId',
      'callingHoursEnd',
      'callingHoursStart',
      'recordingEnabled',
      'region',
    ])
    const twilioSid = { provider: 'twilio', accountSid: 'AC123', callerId: TWILIO.number }
    expect(issuePaths(await send(t.app, admin, 'PUT', '/api/settings/voice', twilioSid))).toEqual([
      'accountSid',
    ])
    const unknown = { provider: 'sandbox', webhook: 'https://evil.example' }
    expectError(await send(t.app, admin, 'PUT', '/api/settings/voice', unknown), 400)
    const vonage = { provider: 'vonage' }
    expect(issuePaths(await send(t.app, admin, 'PUT', '/api/settings/voice', vonage))).toEqual([
      'provider',
    ])
    // A provider's first save needs its secret.
    const noToken = exotelBody({ apiToken: '' })
    expect(issuePaths(await send(t.app, admin, 'PUT', '/api/settings/voice', noToken))).toEqual([
      'apiToken',
    ])
    expect(await row(hospitalA)).toBeUndefined()
  })

  it('Exotel: saved encrypted, answered as set/last 4, with the callback URL to paste', async () => {
    const saved = await save(admin, exotelBody())
    expect(saved).toMatchObject({
      provider: 'exotel',
      sandbox: false,
      callerId: EXOTEL.exophone,
      region: 'mumbai',
      callingHoursStart: '09:30',
      callingHoursEnd: '20:00',
      account: {
        accountSid: EXOTEL.accountSid,
        apiKey: EXOTEL.apiKey,
        apiToken: { set: true, last4: '9876' },
      },
    })
    const stored = await row(hospitalA)
    expect(JSON.stringify(stored?.secrets)).not.toContain(EXOTEL.apiToken)
    const cipher = stored?.secrets.apiToken ?? ''
    expect(decryptSecret(cipher, voiceSecretContext(hospitalA, 'apiToken'))).toBe(EXOTEL.apiToken)
    // Bound to its hospital: the ciphertext does not open as another's.
    expect(() => decryptSecret(cipher, voiceSecretContext(hospitalB, 'apiToken'))).toThrow()
    expect(saved.callbackUrls).toEqual({
      exotelStatus: `http://localhost/api/webhooks/exotel/${hospitalA}/status?t=${stored?.callback_token}`,
      twilioVoice: null,
    })
    const read = await view(admin)
    expect(JSON.stringify(read)).not.toContain(EXOTEL.apiToken)
    // Other members see the provider, not the account nor the token-bearing URL.
    const viewer = await view(await login(t.app, demoEmail('viewer')))
    expect(viewer).toMatchObject({ provider: 'exotel', sandbox: false, account: null })
    expect(JSON.stringify(viewer)).not.toContain(stored?.callback_token ?? '-')
  })

  it('a blank secret keeps the stored one; the audit names fields, never a secret', async () => {
    const before = await row(hospitalA)
    const saved = await save(
      admin,
      exotelBody({ apiToken: '', apiKey: 'exotel-api-key-0002', recordingEnabled: true }),
    )
    expect(saved).toMatchObject({
      recordingEnabled: true,
      account: { apiKey: 'exotel-api-key-0002' },
    })
    const after = await row(hospitalA)
    expect(after?.secrets.apiToken).toBe(before?.secrets.apiToken)
    expect(after?.callback_token).toBe(before?.callback_token)
    const rows = await audits(hospitalA, 'voice.settings_saved')
    expect(rows.map((r) => r.summary)).toEqual([
      expect.stringMatching(/provider exotel.*apiToken.*calling hours 09:30-20:00/),
      expect.stringMatching(/apiKey.*recording on/),
    ])
    expect(rows[1]?.summary).not.toContain('apiToken')
    for (const r of rows) expect(r.summary).not.toContain(EXOTEL.apiToken)
    await save(admin, exotelBody({ apiToken: '', recordingEnabled: false }))
  })

  it('another hospital reads and saves only its own', async () => {
    expect(await view(adminB)).toMatchObject({
      provider: 'sandbox',
      account: { apiToken: { set: false } },
    })
    await save(adminB, {
      provider: 'sandbox',
      callingHoursStart: '10:00',
      callingHoursEnd: '18:00',
    })
    expect((await row(hospitalA))?.provider).toBe('exotel')
    expect(await view(admin)).toMatchObject({ provider: 'exotel', callingHoursStart: '09:30' })
    expect(await audits(hospitalB, 'voice.settings_saved')).toHaveLength(1)
  })
})

describe('test call', () => {
  it('rings the typed number through Exotel from the ExoPhone', async () => {
    const phone = mobileEnding(2)
    const res = await send(t.app, admin, 'POST', '/api/settings/voice/test-call', { phone })
    expect(res.statusCode, res.body).toBe(200)
    const result = voiceTestCallResult.strict().parse(res.json())
    expect(result).toMatchObject({ ok: true, provider: 'exotel', sandbox: false })
    const placed = exotel.calls.at(-1)
    expect(placed).toMatchObject({
      from: `+91${phone}`,
      to: `+91${phone}`,
      callerId: EXOTEL.exophone,
    })
    expect(placed?.params.Record).toBeUndefined()
    expect(result.providerCallId).toBe(placed?.sid)
    const [audit] = (await audits(hospitalA, 'voice.test_call')).slice(-1)
    expect(audit?.summary).toMatch(/through exotel: placed/)
    expect(audit?.summary).not.toContain(phone)
  })

  it('a refusal is a 502 in plain words; a number it will not call is a 400 on phone', async () => {
    const phone = mobileEnding(3)
    exotel.outcomes.set(`+91${phone}`, 'balance')
    const body = expectError(
      await send(t.app, admin, 'POST', '/api/settings/voice/test-call', { phone }),
      502,
      'UPSTREAM',
    )
    expect(body.message).toMatch(/Exotel account has no balance/)
    const [audit] = (await audits(hospitalA, 'voice.test_call')).slice(-1)
    expect(audit?.summary).toMatch(/refused/)
    for (const bad of ['abc', '020 2550 1234', '']) {
      const res = await send(t.app, admin, 'POST', '/api/settings/voice/test-call', { phone: bad })
      expect(issuePaths(res)).toEqual(['phone'])
    }
  })

  it('wrong credentials are a 502 naming Exotel, without the token', async () => {
    await save(admin, exotelBody({ apiToken: 'not-the-right-token-at-all' }))
    try {
      const phone = mobileEnding(4)
      const res = await send(t.app, admin, 'POST', '/api/settings/voice/test-call', { phone })
      const body = expectError(res, 502, 'UPSTREAM')
      expect(body.message).toMatch(/Exotel refused the API key or token/)
      expect(res.body).not.toContain('not-the-right-token')
    } finally {
      await save(admin, exotelBody())
    }
  })

  it('Twilio: saved with its auth token; the test call goes through its API', async () => {
    const saved = await save(admin, {
      provider: 'twilio',
      accountSid: TWILIO.accountSid,
      authToken: TWILIO.authToken,
      callerId: TWILIO.number,
    })
    expect(saved).toMatchObject({
      provider: 'twilio',
      sandbox: false,
      region: null,
      account: { apiKey: null, apiToken: { set: false }, authToken: { set: true, last4: '4321' } },
      callbackUrls: {
        exotelStatus: null,
        twilioVoice: `http://localhost/api/webhooks/twilio/${hospitalA}/voice`,
      },
    })
    // Another provider drops the old one's account.
    expect((await row(hospitalA))?.secrets).not.toHaveProperty('apiToken')
    const phone = mobileEnding(5)
    const res = await send(t.app, admin, 'POST', '/api/settings/voice/test-call', { phone })
    expect(res.statusCode, res.body).toBe(200)
    expect(twilio.calls.at(-1)).toMatchObject({ to: `+91${phone}`, from: TWILIO.number })
  })

  it('the sandbox answers as it would; back on the sandbox the account is gone', async () => {
    const saved = await save(admin, { provider: 'sandbox' })
    expect(saved).toMatchObject({ provider: 'sandbox', sandbox: true, callerId: null })
    expect((await row(hospitalA))?.secrets).toEqual({})
    const calls = exotel.calls.length + twilio.calls.length
    const busy = await send(t.app, admin, 'POST', '/api/settings/voice/test-call', {
      phone: mobileEnding(9),
    })
    expect(busy.statusCode, busy.body).toBe(200)
    const result = voiceTestCallResult.parse(busy.json())
    expect(result).toMatchObject({ provider: 'sandbox', sandbox: true })
    expect(result.providerCallId).toMatch(/^sbxcall_/)
    expect(result.detail).toMatch(/no phone rang.*busy/)
    expect(exotel.calls.length + twilio.calls.length).toBe(calls)
  })

  it('at most 5 test calls a minute per hospital (429), others unaffected', async () => {
    const codes: number[] = []
    for (let i = 0; i < 6; i++) {
      const res = await send(t.app, adminB, 'POST', '/api/settings/voice/test-call', {
        phone: mobileEnding(1),
      })
      codes.push(res.statusCode)
    }
    expect(codes).toEqual([200, 200, 200, 200, 200, 429])
    const res = await send(t.app, adminB, 'POST', '/api/settings/voice/test-call', {
      phone: mobileEnding(1),
    })
    expect(expectError(res, 429, 'RATE_LIMITED').message).toMatch(/at most 5 a minute/)
  })
})
