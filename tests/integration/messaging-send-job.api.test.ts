import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Worker } from '../../src/server/jobs/worker'
import { withTenant } from '../../src/server/db/tenant'
import { sandboxProvider } from '../../src/server/integrations/sandbox/sandbox-provider'
import {
  NOT_CONFIRMED,
  NOT_SENT,
  registerMessagingJobs,
} from '../../src/server/modules/messaging/send-job'
import { SEND_ATTEMPTS } from '../../src/server/modules/messaging/send.service'
import { advanceStatus } from '../../src/server/modules/messaging/status'
import { communication, type Lead } from '../../src/shared/schemas/leads'
import { startFakeTwilio, type FakeTwilio } from '../support/fakes/twilio'
import { waitFor } from '../support/jobs'
import { call, newLead, uniqueMobile } from '../support/leads'
import { login } from '../support/login'
import {
  jobOptions,
  messagingWorker,
  sendJobsOf,
  storedMessage,
  TWILIO_FROM,
  TWILIO_SID,
  TWILIO_TOKEN,
  configureTwilioSms,
} from '../support/messaging-send'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 25: the messaging.send job against the contract-checking fake Twilio and the sandbox:
// sent and delivered, retries on 429/5xx but not on other 4xx, opt-out errors, forward-only
// statuses, and reconciling a message left 'sending' by a crash (never a blind resend).

let t: TestApp
let admin: string
let h: string
let fake: FakeTwilio
let worker: Worker | undefined
let unregister: () => void = () => undefined

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  h = await hospitalIdOf(t.db, 'sanjeevani')
  fake = await startFakeTwilio({ [TWILIO_SID]: TWILIO_TOKEN })
  register()
})
afterEach(async () => {
  await worker?.stop()
  worker = undefined
})
afterAll(async () => {
  unregister()
  await fake?.close()
  await t?.close()
})

function register(overrides: Parameters<typeof jobOptions>[0] = {}) {
  unregister()
  const base = jobOptions()
  unregister = registerMessagingJobs({
    ...base,
    ...overrides,
    urls: { ...base.urls, twilio: fake.url },
  })
}

async function start() {
  worker = messagingWorker(t.database)
  await worker.start()
}

async function queueSms(content = 'Your report is ready'): Promise<{ id: string; lead: Lead }> {
  const lead = await newLead(t.app, admin, { phone: uniqueMobile() })
  const res = await call(t.app, admin, 'POST', '/api/communications', {
    leadId: lead.id,
    type: 'sms',
    direction: 'outbound',
    status: 'sent',
    content,
  })
  expect(res.statusCode, res.body).toBe(201)
  return { id: communication.parse(res.json()).id, lead }
}

const settled = (id: string, statuses: string[]) =>
  waitFor(
    async () => {
      const row = await storedMessage(t.db, id)
      return row && statuses.includes(row.status) ? row : null
    },
    `message ${id} to reach ${statuses.join('/')}`,
    20_000,
  )

const postsTo = (to: string) =>
  fake.requests.filter((r) => r.method === 'POST' && new URLSearchParams(r.raw).get('To') === to)

describe('the sandbox', () => {
  it('sends and reports delivered after SANDBOX_DELIVERY_MS', async () => {
    await configureTwilioSms(t.db, h, false)
    const { id } = await queueSms()
    await start()
    const row = await settled(id, ['delivered'])
    expect(row).toMatchObject({ provider: 'sandbox', sandbox: true })
    expect(row.provider_message_id).toMatch(/^sbx_/)
  })
})

describe('through Twilio', () => {
  beforeAll(async () => {
    await configureTwilioSms(t.db, h)
  })

  it('sends once with the status callback and records the SID', async () => {
    const { id, lead } = await queueSms('Hello from the clinic')
    await start()
    const row = await settled(id, ['sent'])
    const sent = fake.messages.filter((m) => m.to === lead.phone)
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ body: 'Hello from the clinic', from: TWILIO_FROM })
    expect(sent[0]?.statusCallback).toBe(
      `http://127.0.0.1:9/api/webhooks/twilio/${h}/status?c=${id}`,
    )
    expect(row).toMatchObject({ provider: 'twilio', sandbox: false })
    expect(row.provider_message_id).toBe(sent[0]?.sid)
    expect(postsTo(lead.phone).every((r) => r.refused === null)).toBe(true)
  })

  it('retries a 503 and a 429 (after its Retry-After), then sends exactly once', async () => {
    fake.behave({ status: 503, code: 20500 })
    const first = await queueSms()
    await start()
    await settled(first.id, ['sent'])
    expect(postsTo(first.lead.phone)).toHaveLength(2)
    expect(fake.acceptedTo.get(first.lead.phone)).toBe(1)
    await worker?.stop()
    fake.behave({ status: 429, code: 20429, retryAfter: '1' })
    const second = await queueSms()
    const queuedAt = Date.now()
    await start()
    await settled(second.id, ['sent'])
    expect(Date.now() - queuedAt).toBeGreaterThanOrEqual(1_000)
    expect(postsTo(second.lead.phone)).toHaveLength(2)
    expect(fake.acceptedTo.get(second.lead.phone)).toBe(1)
  })

  it('a provider down for every attempt: failed as not sent, never left queued', async () => {
    fake.behave({ status: 503, code: 20500, times: SEND_ATTEMPTS })
    const { id, lead } = await queueSms()
    await start()
    const row = await settled(id, ['failed'])
    expect(row).toMatchObject({ failure_code: '20500', failure_reason: NOT_SENT })
    expect(postsTo(lead.phone)).toHaveLength(SEND_ATTEMPTS)
    expect(fake.acceptedTo.get(lead.phone)).toBeUndefined()
    expect((await sendJobsOf(t.db, id)).map((j) => j.status)).toEqual(['done'])
  })

  it('a worker that died during the last attempt: queued fails as not sent, sending as not confirmed', async () => {
    const queued = await queueSms()
    const sending = await queueSms()
    await withTenant(t.db, { hospitalId: h, userId: null }, (tx) =>
      tx.execute(sql`update communications set status = 'sending', status_changed_at = now()
                     where id = ${sending.id}`),
    )
    // Both jobs as a dead worker leaves them: running, lease run out, no attempts left.
    await t.db.execute(
      sql`update jobs set status = 'running', attempts = max_attempts, locked_by = 'gone',
                 locked_until = now() - interval '1 second'
          where name = 'messaging.send' and payload->>'id' in (${queued.id}, ${sending.id})`,
    )
    await start()
    expect(await settled(queued.id, ['failed'])).toMatchObject({
      failure_code: 'not_sent',
      failure_reason: NOT_SENT,
    })
    expect(await settled(sending.id, ['failed'])).toMatchObject({
      failure_code: 'not_confirmed',
      failure_reason: NOT_CONFIRMED,
    })
    expect(postsTo(queued.lead.phone)).toHaveLength(0)
    expect(postsTo(sending.lead.phone)).toHaveLength(0)
    // The message is settled first, then its job is buried: under load the two are apart.
    for (const id of [queued.id, sending.id]) {
      const statuses = async () => (await sendJobsOf(t.db, id)).map((j) => j.status)
      await waitFor(async () => (await statuses()).every((s) => s !== 'running'), 'the dead job')
      expect(await statuses()).toEqual(['dead'])
    }
  })

  it('does not retry another 4xx: failed with the reason, one request', async () => {
    fake.behave({
      status: 400,
      code: 21408,
      message: 'Permission to send an SMS has not been enabled',
    })
    const { id, lead } = await queueSms()
    await start()
    const row = await settled(id, ['failed'])
    expect(row.failure_code).toBe('21408')
    expect(row.failure_reason).toBeTruthy()
    await new Promise((r) => setTimeout(r, 300))
    expect(postsTo(lead.phone)).toHaveLength(1)
    expect((await sendJobsOf(t.db, id)).map((j) => j.status)).toEqual(['done'])
  })

  it('an unsubscribed recipient (21610) fails and records an opt-out; the next send is refused', async () => {
    fake.behave({ status: 400, code: 21610, message: 'Attempt to send to unsubscribed recipient' })
    const { id, lead } = await queueSms()
    await start()
    await settled(id, ['failed'])
    const consents = await queryRows<{ action: string; method: string }>(
      t.db,
      sql`select action, method from consent_records where contact_address = ${lead.phone}`,
    )
    expect(consents).toEqual([{ action: 'opt_out', method: 'provider' }])
    const again = await call(t.app, admin, 'POST', '/api/communications', {
      leadId: lead.id,
      type: 'sms',
      direction: 'outbound',
      status: 'sent',
      content: 'Hello?',
    })
    expect(again.statusCode).toBe(409)
  })

  it('statuses only move forward: a callback that got there first keeps delivered', async () => {
    fake.behave({ delayMs: 600 })
    const { id } = await queueSms()
    await start()
    await settled(id, ['sending'])
    // The status callback (delivered) arrives while the send's answer is still on its way.
    await t.db.execute(sql`update communications set status = 'delivered' where id = ${id}`)
    await waitFor(async () => (await sendJobsOf(t.db, id))[0]?.status === 'done', 'the job')
    const row = await storedMessage(t.db, id)
    expect(row?.status).toBe('delivered')
    expect(row?.provider_message_id).toMatch(/^SM/)
    // And a late 'sent' changes nothing either.
    const moved = await withTenant(t.db, { hospitalId: h, userId: null }, (tx) =>
      advanceStatus(tx, { id }, { status: 'sent' }),
    )
    expect(moved).toBeNull()
    expect((await storedMessage(t.db, id))?.status).toBe('delivered')
  })
})

describe('reconciling a message left sending (a worker died after handing it over)', () => {
  beforeAll(async () => {
    await configureTwilioSms(t.db, h)
  })

  async function leftSending(content: string) {
    const queued = await queueSms(content)
    await t.db.execute(sql`update communications set status = 'sending',
      status_changed_at = now() - interval '2 seconds' where id = ${queued.id}`)
    return queued
  }

  it('found at the provider: marked sent with its SID, not sent again', async () => {
    const { id, lead } = await leftSending('Already handed over')
    const now = new Date().toUTCString().replace('GMT', '+0000')
    fake.messages.push({
      sid: 'SM0123456789abcdef0123456789abcdef',
      account_sid: TWILIO_SID,
      to: lead.phone,
      from: TWILIO_FROM,
      body: 'Already handed over',
      status: 'sent',
      direction: 'outbound-api',
      date_created: now,
      date_sent: now,
      error_code: null,
      statusCallback: null,
      contentSid: null,
      contentVariables: null,
    })
    await start()
    const row = await settled(id, ['sent'])
    expect(row.provider_message_id).toBe('SM0123456789abcdef0123456789abcdef')
    expect(postsTo(lead.phone)).toHaveLength(0)
  })

  it('not found: sent now, once', async () => {
    const { id, lead } = await leftSending('Never reached Twilio')
    await start()
    await settled(id, ['sent'])
    expect(postsTo(lead.phone)).toHaveLength(1)
  })

  it('the provider cannot tell: never resent, failed after the reconcile window', async () => {
    let sends = 0
    const blind = sandboxProvider('sms')
    register({
      reconcileWindowMs: 1_500,
      reconcileCheckMs: 100,
      providerFor: () => ({
        ...blind,
        name: 'twilio',
        send: (...args) => {
          sends += 1
          return blind.send(...args)
        },
        lookup: () => Promise.resolve({ found: 'unknown' as const }),
      }),
    })
    try {
      const { id } = await leftSending('Unknown fate')
      await start()
      const row = await settled(id, ['failed'])
      expect(row.failure_reason).toBe(NOT_CONFIRMED)
      expect(sends).toBe(0)
    } finally {
      register()
    }
  })
})
