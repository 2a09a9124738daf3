import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { streamTiming } from '../../src/server/modules/messaging-events/events.routes'
import { expectError } from '../support/http'
import { call, newLead, uniqueMobile } from '../support/leads'
import { login } from '../support/login'
import {
  configureMessaging,
  outboundMessage,
  postTwilio,
  twilioConnection,
  twilioSid,
} from '../support/messaging-webhooks'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'
import { sql } from 'drizzle-orm'

// Live messaging (issue 25): GET /api/events/messages streams the member's own hospital's
// message events (fanned out from NOTIFY 'messaging'), and the unread count after inbound
// messages; GET /api/messaging/unread; staff consent records (POST/GET /api/consents).

let t: TestApp
let hospitalA: string
let hospitalB: string
let cookieA: string
let cookieB: string
let base: string
const TOKEN_A = 'twilio-token-events-a'
const TOKEN_B = 'twilio-token-events-b'
const twilio = (token: string) => twilioConnection(token, '2', '+14155550111')

beforeAll(async () => {
  t = await createTestApp()
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  hospitalB = await hospitalIdOf(t.db, 'smiledental')
  cookieA = await login(t.app, demoEmail('receptionist'))
  cookieB = await login(t.app, demoEmail('receptionist', 'smiledental'))
  await configureMessaging(t.db, hospitalA, { sms: twilio(TOKEN_A) })
  await configureMessaging(t.db, hospitalB, { sms: twilio(TOKEN_B) })
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await t?.close()
})

interface SseEvent {
  event: string
  data: unknown
}

/** An open SSE stream: its events so far, and a wait for the next one that matches. */
function openStream(cookie: string | null) {
  const events: SseEvent[] = []
  const waiters: { match: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }[] = []
  let status = 0
  let ended = false
  let buffer = ''
  const opened = new Promise<void>((resolve, reject) => {
    const req = http.get(
      `${base}/api/events/messages`,
      { headers: { host: 'localhost', ...(cookie ? { cookie } : {}) } },
      (res) => {
        status = res.statusCode ?? 0
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          buffer += chunk
          let cut
          while ((cut = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, cut)
            buffer = buffer.slice(cut + 2)
            const event = /^event: (.*)$/m.exec(block)?.[1]
            const data = /^data: (.*)$/m.exec(block)?.[1]
            if (!event || data === undefined) continue
            const e = { event, data: JSON.parse(data) as unknown }
            events.push(e)
            for (const w of [...waiters]) {
              if (w.match(e)) {
                waiters.splice(waiters.indexOf(w), 1)
                w.resolve(e)
              }
            }
          }
        })
        res.on('end', () => (ended = true))
        resolve()
      },
    )
    req.on('error', reject)
    streams.push(req)
  })
  return {
    opened,
    events,
    status: () => status,
    ended: () => ended,
    next(match: (e: SseEvent) => boolean, ms = 5_000): Promise<SseEvent> {
      const found = events.find(match)
      if (found) return Promise.resolve(found)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no matching event in ${ms} ms: ${JSON.stringify(events)}`)),
          ms,
        )
        waiters.push({ match, resolve: (e) => (clearTimeout(timer), resolve(e)) })
      })
    },
  }
}
const streams: http.ClientRequest[] = []
afterAll(() => streams.forEach((s) => s.destroy()))

describe('GET /api/events/messages', () => {
  it('is for signed-in members only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/events/messages' })
    expectError(res, 401)
  })

  it("streams a status callback's change to the hospital's screens only, and the unread count after a reply", async () => {
    const a = openStream(cookieA)
    const b = openStream(cookieB)
    await Promise.all([a.opened, b.opened])
    expect(a.status()).toBe(200)
    const first = await a.next((e) => e.event === 'unread')
    const before = (first.data as { count: number }).count
    await b.next((e) => e.event === 'unread')

    const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(51_000) })
    const sid = twilioSid()
    const id = await outboundMessage(t.db, hospitalA, {
      leadId: lead.id,
      type: 'sms',
      provider: 'twilio',
      providerMessageId: sid,
      contactAddress: lead.phone,
    })
    const res = await postTwilio(
      t.app,
      `/api/webhooks/twilio/${hospitalA}/status`,
      { MessageSid: sid, MessageStatus: 'delivered' },
      TOKEN_A,
    )
    expect(res.statusCode, res.body).toBe(200)
    const event = await a.next(
      (e) => e.event === 'communication' && (e.data as { id: string }).id === id,
    )
    expect(event.data).toEqual({
      id,
      leadId: lead.id,
      patientId: null,
      status: 'delivered',
      failureReason: null,
      direction: 'outbound',
    })

    const reply = await postTwilio(
      t.app,
      `/api/webhooks/twilio/${hospitalA}/inbound`,
      { MessageSid: twilioSid(), From: lead.phone, Body: 'Thank you' },
      TOKEN_A,
    )
    expect(reply.statusCode).toBe(200)
    const inbound = await a.next(
      (e) =>
        e.event === 'communication' && (e.data as { direction: string }).direction === 'inbound',
    )
    expect(inbound.data).toMatchObject({ leadId: lead.id, status: 'received' })
    const unread = await a.next(
      (e) => e.event === 'unread' && (e.data as { count: number }).count > before,
    )
    expect(unread.data).toEqual({ count: before + 1 })

    // B's screen heard nothing of A's messages.
    await new Promise((r) => setTimeout(r, 300))
    expect(b.events.filter((e) => e.event !== 'unread')).toEqual([])
    expect(b.events).toHaveLength(1)
  })
})

describe('the stream ends', () => {
  it('when the session is signed out (checked at each heartbeat)', async () => {
    const cookie = await login(t.app, demoEmail('nurse'))
    streamTiming.heartbeatMs = 200
    try {
      const s = openStream(cookie)
      await s.opened
      await s.next((e) => e.event === 'unread')
      await new Promise((r) => setTimeout(r, 500))
      expect(s.ended()).toBe(false)
      const out = await call(t.app, cookie, 'POST', '/api/logout')
      expect(out.statusCode, out.body).toBeLessThan(400)
      for (let i = 0; i < 40 && !s.ended(); i++) await new Promise((r) => setTimeout(r, 50))
      expect(s.ended()).toBe(true)
    } finally {
      streamTiming.heartbeatMs = 25_000
    }
  })

  it('after its maximum lifetime (the browser reconnects)', async () => {
    streamTiming.maxStreamMs = 300
    try {
      const s = openStream(cookieA)
      await s.opened
      for (let i = 0; i < 40 && !s.ended(); i++) await new Promise((r) => setTimeout(r, 50))
      expect(s.ended()).toBe(true)
      expect(s.events[0]?.event).toBe('unread')
    } finally {
      streamTiming.maxStreamMs = 60 * 60_000
    }
  })
})

describe.runIf(process.env.TEST_DATABASE_URL)(
  'without LISTEN (PostgreSQL, no DATABASE_DIRECT_URL)',
  () => {
    it('tells the screen to retry (poll) and ends the stream', async () => {
      const other = await createTestApp({ databaseDirectUrl: undefined })
      try {
        await other.app.listen({ port: 0, host: '127.0.0.1' })
        const port = (other.app.server.address() as AddressInfo).port
        const cookie = await login(other.app, demoEmail('receptionist'))
        const res = await fetch(`http://127.0.0.1:${port}/api/events/messages`, {
          headers: { cookie },
        })
        expect(res.status).toBe(200)
        const text = await res.text()
        expect(text).toContain('event: retry')
        expect(text).toContain('"pollMs":')
      } finally {
        await other.close()
      }
    })
  },
)

describe('GET /api/messaging/unread', () => {
  it("counts the hospital's unread inbound messages; reading the lead clears them", async () => {
    const count = async (cookie: string) => {
      const res = await call(t.app, cookie, 'GET', '/api/messaging/unread')
      expect(res.statusCode, res.body).toBe(200)
      return res.json<{ count: number }>().count
    }
    const [rowA] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from communications where hospital_id = ${hospitalA} and direction = 'inbound' and read_at is null`,
    )
    expect(await count(cookieA)).toBe(rowA?.n)
    const lead = await newLead(t.app, cookieA, { phone: uniqueMobile(52_000) })
    const beforeB = await count(cookieB)
    await postTwilio(
      t.app,
      `/api/webhooks/twilio/${hospitalA}/inbound`,
      { MessageSid: twilioSid(), From: lead.phone, Body: 'One' },
      TOKEN_A,
    )
    await postTwilio(
      t.app,
      `/api/webhooks/twilio/${hospitalA}/inbound`,
      { MessageSid: twilioSid(), From: lead.phone, Body: 'Two' },
      TOKEN_A,
    )
    expect(await count(cookieA)).toBe((rowA?.n ?? 0) + 2)
    expect(await count(cookieB)).toBe(beforeB)
    expect((await call(t.app, cookieA, 'POST', `/api/leads/${lead.id}/read`)).statusCode).toBe(204)
    expect(await count(cookieA)).toBe(rowA?.n)
    expectError(await t.app.inject({ method: 'GET', url: '/api/messaging/unread' }), 401)
  })
})

describe('POST /api/patients/:id/read', () => {
  it("clears a patient's unread replies from the bell; 404 for another hospital's patient", async () => {
    const phone = `+9198${Math.floor(10_000_000 + Math.random() * 89_999_999)}`
    const [patient] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into patients (hospital_id, name, phone) values (${hospitalA}, 'Reader Patient', ${phone}) returning id`,
    )
    const unread = async () =>
      (await call(t.app, cookieA, 'GET', '/api/messaging/unread')).json<{ count: number }>().count
    const before = await unread()
    await postTwilio(
      t.app,
      `/api/webhooks/twilio/${hospitalA}/inbound`,
      { MessageSid: twilioSid(), From: phone, Body: 'Report ready?' },
      TOKEN_A,
    )
    expect(await unread()).toBe(before + 1)
    expectError(await call(t.app, cookieB, 'POST', `/api/patients/${patient?.id}/read`), 404)
    expect(await unread()).toBe(before + 1)
    expect(
      (await call(t.app, cookieA, 'POST', `/api/patients/${patient?.id}/read`)).statusCode,
    ).toBe(204)
    expect(await unread()).toBe(before)
    const audit = await queryRows(
      t.db,
      sql`select action from audit_events where entity_id = ${patient?.id ?? ''}`,
    )
    expect(audit).toEqual([{ action: 'communication.read' }])
  })
})
