import { randomInt, randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Worker } from '../../src/server/jobs/worker'
import { sandboxProvider } from '../../src/server/integrations/sandbox/sandbox-provider'
import { deriveBookingCode, revealBookingCode } from '../../src/server/modules/booking/booking-code'
import { BOOKING_LIMITS, hospitalCodesKey } from '../../src/server/modules/booking/booking-limits'
import { registerMessagingJobs } from '../../src/server/modules/messaging/send-job'
import type {
  BookingConfirmation,
  BookingHold,
  BookingPage,
} from '../../src/shared/schemas/booking'
import {
  type BookingFixture,
  bookingFixture,
  codeOf,
  e164,
  freshIp,
  freshMobile,
  getPage,
  getSlots,
  laterOpenDay,
  postConfirm,
  postHold,
  resetHospitalCodes,
  serviceNamed,
} from '../support/booking'
import { expectError } from '../support/http'
import { waitFor } from '../support/jobs'
import { newLead } from '../support/leads'
import { browserHeaders, login } from '../support/login'
import { jobOptions, messagingWorker, optOut } from '../support/messaging-send'
import { createTestApp, demoEmail, queryRows, type TestApp } from '../support/test-app'

// Issue 39, items 9, 10, 11 and 15: the public booking page tells nothing about a mobile
// number, cannot be used to pump SMS, never attaches a booking to a stranger's record, and no
// stored row holds a code. This app is a development server (revealSandboxCodes), so an admin
// may read codes in the Sandbox Outbox; booking-holds.api.test.ts covers production's mask.

let t: TestApp
let f: BookingFixture
let page: BookingPage
let opd: { id: string }
let admin: string
beforeAll(async () => {
  t = await createTestApp({ revealSandboxCodes: true })
  f = await bookingFixture(t)
  page = await getPage(t, f.slug)
  opd = serviceNamed(page, 'OPD consultation')
  admin = await login(t.app, demoEmail('admin'))
})
afterAll(async () => {
  await t?.close()
})
beforeEach(async () => {
  if (t) await resetHospitalCodes(t.db, f.hospitalId)
})

const pools = new Map<string, string[]>()
let dayIndex = 0
/** A free start for `doctorId` ('any': either doctor), taken once. */
async function freeStart(doctorId: string = f.doctors[0]): Promise<string> {
  let pool = pools.get(doctorId) ?? []
  while (pool.length === 0) {
    const openDays = page.days.slice(1).filter((d) => d.open).length
    const date = laterOpenDay(page, dayIndex++ % openDays)
    const day = await getSlots(t, f.slug, { serviceId: opd.id, doctorId, date })
    pool = day.slots.map((s) => s.startsAt)
  }
  pools.set(doctorId, pool)
  return pool.shift() as string
}

async function hold(phone: string, ip = freshIp(), name = 'Priya Deshmukh') {
  return postHold(
    t,
    f.slug,
    { serviceId: opd.id, doctorId: f.doctors[0], startsAt: await freeStart(), phone, name },
    ip,
  )
}

const post = (url: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers: browserHeaders(admin), payload: payload as object })

async function addPatient(name: string, mobile: string): Promise<string> {
  const res = await post('/api/patients/manual', { name, phone: mobile })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<{ id: string }>().id
}

/** Mobiles the answer masks alike ('+91 98xxx •••42'): only their middle digits differ. */
function lookAlikeMobiles(n: number): string[] {
  const head = `98${String(randomInt(0, 1000)).padStart(3, '0')}`
  const middles = new Set<number>()
  while (middles.size < n) middles.add(randomInt(0, 1000))
  return [...middles].map((m) => `${head}${String(m).padStart(3, '0')}42`)
}

describe('codes are stored only as an HMAC (item 15)', () => {
  it('the provider gets the code; no stored row holds it in clear', async () => {
    const got: string[] = []
    const sandbox = sandboxProvider('sms')
    const unregister = registerMessagingJobs({
      ...jobOptions(),
      providerFor: () => ({
        ...sandbox,
        send: (message, signal) => {
          got.push(message.text)
          return sandbox.send(message, signal)
        },
      }),
    })
    let worker: Worker | undefined
    try {
      const res = await hold(freshMobile())
      const held = res.json<BookingHold>()
      const code = await codeOf(t.db, held.holdId)
      worker = messagingWorker(t.database)
      await worker.start()
      await waitFor(async () => {
        const [row] = await queryRows<{ status: string }>(
          t.db,
          sql`select status from communications where booking_hold_id = ${held.holdId}`,
        )
        return row && ['sent', 'delivered'].includes(row.status) ? row : undefined
      }, 'the code sent')
      expect(got.filter((text) => text.startsWith(`${code} is your code to confirm`))).toHaveLength(
        1,
      )

      // The message, its jobs, the hold and its audit rows: none holds the code.
      const related = await queryRows<{ row: string }>(
        t.db,
        sql`select c::text as row from communications c where c.booking_hold_id = ${held.holdId}
            union all select j::text from jobs j where j.payload->>'id' in
              (select id::text from communications where booking_hold_id = ${held.holdId})
            union all select h::text from booking_holds h where h.id = ${held.holdId}
            union all select a::text from audit_events a where a.entity_id = ${held.holdId}`,
      )
      expect(related.length).toBeGreaterThanOrEqual(3)
      for (const { row } of related) expect(row).not.toContain(code)
      // No communication anywhere holds a booking code in clear.
      const clear = await queryRows(
        t.db,
        sql`select 1 from communications where content ~ '^[0-9]{6} is your code'`,
      )
      expect(clear).toHaveLength(0)
      // Nor does any other table.
      const tables = await queryRows<{ name: string }>(
        t.db,
        sql`select quote_ident(table_name) as name from information_schema.tables
            where table_schema = 'public' and table_type = 'BASE TABLE'`,
      )
      for (const { name } of tables) {
        const hits = await queryRows(
          t.db,
          sql`select 1 from ${sql.raw(name)} x where x::text ~ ${`${code} is your code`} limit 1`,
        )
        expect(hits, name).toHaveLength(0)
      }
    } finally {
      await worker?.stop()
      unregister()
    }
  }, 120_000)

  it('drizzle/0038 masks the codes stored in clear before, and they stay masked', async () => {
    const held = (await hold(freshMobile())).json<BookingHold>()
    const legacy = '123456 is your code to confirm your appointment at X. It expires in 5 minutes.'
    await t.db.execute(sql`update communications set content = ${legacy},
      metadata = '{"purpose":"booking_code","template":"custom"}'::jsonb
      where booking_hold_id = ${held.holdId}`)
    for (const statement of readFileSync('drizzle/0038_booking_privacy.sql', 'utf8').split(
      '--> statement-breakpoint',
    )) {
      await t.db.execute(sql.raw(statement))
    }
    const [row] = await queryRows<{ content: string; metadata: Record<string, unknown> }>(
      t.db,
      sql`select content, metadata from communications where booking_hold_id = ${held.holdId}`,
    )
    expect(row?.content).toBe(legacy.replace('123456', '••••••'))
    const shown = revealBookingCode({
      hospitalId: f.hospitalId,
      bookingHoldId: held.holdId,
      content: row?.content ?? '',
      metadata: row?.metadata ?? {},
    })
    expect(shown).toBe(row?.content)
  })

  it('the Sandbox Outbox shows a code to an admin of a development server only; a viewer sees it masked', async () => {
    const mobile = freshMobile()
    const held = (await hold(mobile)).json<BookingHold>()
    const code = await codeOf(t.db, held.holdId)
    const outboxText = async (email: string) => {
      const cookie = await login(t.app, email)
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/sandbox-outbox',
        headers: browserHeaders(cookie),
      })
      expect(res.statusCode, res.body).toBe(200)
      const message = res
        .json<{ messages: { to: string; text: string }[] }>()
        .messages.find((m) => m.to === e164(mobile))
      return { text: message?.text ?? '', body: res.body }
    }
    const asAdmin = await outboxText(demoEmail('admin'))
    expect(asAdmin.text).toMatch(new RegExp(`^${code} is your code to confirm your appointment`))
    const asViewer = await outboxText(demoEmail('viewer'))
    expect(asViewer.text).toMatch(/^•••••• is your code to confirm your appointment/)
    expect(asViewer.body).not.toContain(code)
  })
})

describe('a hold answers the same whatever the mobile number (item 9)', () => {
  it('opted out, erased, a known patient, a known lead and an unknown number get byte-identical answers', async () => {
    const [optedOutMobile, erasedMobile, patientMobile, leadMobile, unknownMobile] =
      lookAlikeMobiles(5) as [string, string, string, string, string]
    await optOut(t.db, f.hospitalId, 'sms', e164(optedOutMobile))
    const erasedId = await addPatient('Erased Person', erasedMobile)
    const erased = await post(`/api/patients/${erasedId}/erase`, { confirmName: 'Erased Person' })
    expect(erased.statusCode, erased.body).toBe(200)
    await addPatient('Known Patient', patientMobile)
    await newLead(t.app, admin, { name: 'Known Lead', phone: leadMobile })

    const states = {
      optedOut: optedOutMobile,
      erased: erasedMobile,
      patient: patientMobile,
      lead: leadMobile,
      unknown: unknownMobile,
    }
    const answers: Record<string, string> = {}
    const holdIds: Record<string, string> = {}
    for (const [state, mobile] of Object.entries(states)) {
      const res = await hold(mobile)
      const body = res.json<BookingHold>()
      holdIds[state] = body.holdId
      const headers = Object.entries(res.headers)
        .filter(([k]) => k !== 'date')
        .sort(([a], [b]) => a.localeCompare(b))
      // The hold's own id and expiry differ by nature (same lengths); nothing else may.
      const raw = res.body.replace(body.holdId, '<id>').replace(body.expiresAt, '<expires>')
      answers[state] = JSON.stringify({ status: res.statusCode, headers, raw })
    }
    const expected = answers.unknown
    expect(expected).toContain('"status":201')
    for (const state of Object.keys(states)) expect(answers[state], state).toBe(expected)

    // Only the numbers that may receive the clinic's SMS were sent a code.
    const sent = await queryRows<{ booking_hold_id: string }>(
      t.db,
      sql`select booking_hold_id from communications where booking_hold_id in
          (${holdIds.optedOut}, ${holdIds.erased}, ${holdIds.patient}, ${holdIds.lead}, ${holdIds.unknown})`,
    )
    expect(sent.map((r) => r.booking_hold_id).sort()).toEqual(
      [holdIds.patient, holdIds.lead, holdIds.unknown].sort(),
    )
    // Nothing personal is kept for the others, and their holds can never be confirmed.
    for (const state of ['optedOut', 'erased'] as const) {
      const id = holdIds[state] as string
      const [row] = await queryRows<{ name: string; phone: string }>(
        t.db,
        sql`select name, phone from booking_holds where id = ${id}`,
      )
      expect(row).toEqual({ name: '', phone: '' })
      const wouldBe = deriveBookingCode({ hospitalId: f.hospitalId, id })?.code ?? '000000'
      const tried = await postConfirm(t, f.slug, id, wouldBe)
      expect(expectError(tried, 400).message).toBe('Wrong code. 4 tries left.')
    }
  })

  it('an opted-out number reaches the per-mobile limit exactly like any other', async () => {
    const [optedOutMobile, unknownMobile] = lookAlikeMobiles(2) as [string, string]
    await optOut(t.db, f.hospitalId, 'sms', e164(optedOutMobile))
    for (const mobile of [optedOutMobile, unknownMobile]) {
      const statuses: number[] = []
      for (let i = 0; i <= BOOKING_LIMITS.holdsPerMobile; i++) {
        statuses.push((await hold(mobile)).statusCode)
      }
      expect(statuses, mobile).toEqual([
        ...Array<number>(BOOKING_LIMITS.holdsPerMobile).fill(201),
        429,
      ])
    }
  })

  it('25 refused holds from one network reach a 429: a refusal gives no quota back', async () => {
    const startsAt = await freeStart()
    const base = { serviceId: opd.id, doctorId: f.doctors[0], startsAt }
    expect((await postHold(t, f.slug, base)).statusCode).toBe(201)
    const ip = freshIp()
    const statuses: number[] = []
    for (let i = 0; i < 25; i++) statuses.push((await postHold(t, f.slug, base, ip)).statusCode)
    expect(statuses).toEqual([
      ...Array<number>(BOOKING_LIMITS.holdsPerIp).fill(409),
      ...Array<number>(25 - BOOKING_LIMITS.holdsPerIp).fill(429),
    ])
  })
})

describe('SMS pumping (item 10)', () => {
  it(`sends at most ${BOOKING_LIMITS.codesPerHospital} codes per hospital per hour, whatever the networks and numbers`, async () => {
    const optedOutMobile = freshMobile()
    await optOut(t.db, f.hospitalId, 'sms', e164(optedOutMobile))
    for (let i = 0; i < BOOKING_LIMITS.codesPerHospital; i++) {
      // Holds that send nothing count too (an opted-out number), or the cap would tell.
      const doctorId = f.doctors[i % 2] as string
      const res = await postHold(t, f.slug, {
        serviceId: opd.id,
        doctorId,
        startsAt: await freeStart(doctorId),
        ...(i % 10 === 0 ? { phone: optedOutMobile } : {}),
      })
      expect(res.statusCode, `${i}: ${res.body}`).toBe(i % 10 === 0 && i >= 50 ? 429 : 201)
    }
    const [count] = await queryRows<{ hits: number }>(
      t.db,
      sql`select hits from rate_limit_hits where key = ${hospitalCodesKey(f.hospitalId)}`,
    )
    expect(count?.hits).toBe(BOOKING_LIMITS.codesPerHospital - 1)
    expect((await hold(freshMobile())).statusCode).toBe(201)
    const refused = await hold(freshMobile())
    expect(expectError(refused, 429, 'RATE_LIMITED').message).toMatch(
      /^This clinic's online booking has sent as many codes as it may this hour\. Please try again in \d+ minutes, or call the clinic to book\.$/,
    )
  }, 300_000)

  it('addresses of one IPv6 /64 share one limit; another /64 has its own', async () => {
    const net = `2001:db8:${randomInt(1, 0xffff).toString(16)}:${randomInt(1, 0xffff).toString(16)}`
    const inNet = () =>
      `${net}:${[0, 0, 0, 0].map(() => randomInt(0, 0xffff).toString(16)).join(':')}`
    for (let i = 0; i < BOOKING_LIMITS.holdsPerIp; i++) {
      const res = await hold(freshMobile(), inNet())
      expect(res.statusCode, res.body).toBe(201)
    }
    const refused = await hold(freshMobile(), inNet())
    expect(expectError(refused, 429, 'RATE_LIMITED').message).toMatch(
      /^Too many booking attempts from your network/,
    )
    expect((await hold(freshMobile(), '2001:db8:0:1::1')).statusCode).toBe(201)
    // Code checks are counted by /64 as well.
    const ip = `2001:db8:ffff:${randomInt(1, 0xffff).toString(16)}`
    for (let i = 0; i < BOOKING_LIMITS.confirmsPerIp; i++) {
      const res = await postConfirm(t, f.slug, randomUUID(), '123456', `${ip}::${i + 1}`)
      expect(res.statusCode).toBe(404)
    }
    const tooMany = await postConfirm(t, f.slug, randomUUID(), '123456', `${ip}:1:2:3:4`)
    expectError(tooMany, 429, 'RATE_LIMITED')
  }, 300_000)
})

describe("a booking never lands on a stranger's record (item 11)", () => {
  it('a patient’s mobile with another name books a new patient and never shows the stored name', async () => {
    const mobile = freshMobile()
    const sureshId = await addPatient('Suresh Patil', mobile)
    const held = (await hold(`+91 ${mobile}`, freshIp(), 'Ravi Kumar')).json<BookingHold>()
    const res = await postConfirm(t, f.slug, held.holdId, await codeOf(t.db, held.holdId))
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json<BookingConfirmation>().patientName).toBe('Ravi Kumar')
    expect(res.body).not.toMatch(/Suresh|Patil/)
    const [appt] = await queryRows<{ patient_id: string; name: string }>(
      t.db,
      sql`select a.patient_id, p.name from appointments a join patients p on p.id = a.patient_id
          where a.id = ${res.json<BookingConfirmation>().appointmentId}`,
    )
    expect(appt?.patient_id).not.toBe(sureshId)
    expect(appt?.name).toBe('Ravi Kumar')
    const onSuresh = await queryRows(
      t.db,
      sql`select 1 from appointments where patient_id = ${sureshId}`,
    )
    expect(onSuresh).toHaveLength(0)
  })

  it('the same name, spelt with other case and spaces, books onto that patient, answering what was typed', async () => {
    const mobile = freshMobile()
    const sureshId = await addPatient('Suresh  Patil', mobile)
    await addPatient('Anita Patil', mobile)
    const held = (await hold(mobile, freshIp(), 'suresh PATIL')).json<BookingHold>()
    const res = await postConfirm(t, f.slug, held.holdId, await codeOf(t.db, held.holdId))
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json<BookingConfirmation>().patientName).toBe('suresh PATIL')
    expect(res.body).not.toMatch(/Suresh {2}Patil|Anita/)
    const [appt] = await queryRows<{ patient_id: string }>(
      t.db,
      sql`select patient_id from appointments where id = ${res.json<BookingConfirmation>().appointmentId}`,
    )
    expect(appt?.patient_id).toBe(sureshId)
  })
})
