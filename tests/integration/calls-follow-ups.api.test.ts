import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Stats, stats } from '../../src/shared/schemas/leads'
import type { Worker } from '../../src/server/jobs/worker'
import {
  callsWorker,
  ended,
  FAST_VOICE,
  leadWithPhone,
  send,
  setCallingHours,
  startCall,
  verifyMyPhone,
} from '../support/calls'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 41: a "call back at…" disposition is the lead's follow-up. The Lead Management
// Dashboard's Follow-ups figure keeps its meaning (waiting leads not contacted for the
// hospital's follow-up days) and adds call-backs due today or earlier, of open leads whose
// newest call it is; one lead due both ways counts once; a call-back before today is overdue
// (and so in the bell's count).

let t: TestApp
let worker: Worker
let receptionist: string
let hospitalId: string

beforeAll(async () => {
  t = await createTestApp({ voice: FAST_VOICE })
  worker = callsWorker(t.database)
  await worker.start()
  receptionist = await login(t.app, demoEmail('receptionist'))
  hospitalId = await hospitalIdOf(t.db, 'sanjeevani')
  // A controlled data set: the demo's leads (and with them their calls) go.
  await queryRows(t.db, sql`delete from leads where hospital_id = ${hospitalId}`)
  await queryRows(t.db, sql`delete from lead_settings where hospital_id = ${hospitalId}`)
  await setCallingHours(t, hospitalId, '00:00', '00:00')
  await verifyMyPhone(t, receptionist)
})
afterAll(async () => {
  await worker?.stop()
  await t?.close()
})

async function statsNow(): Promise<Stats> {
  const res = await send(t.app, receptionist, 'GET', '/api/stats')
  expect(res.statusCode, res.body).toBe(200)
  return stats.strict().parse(res.json())
}

/** Tomorrow 11:00 in India, as the dialog sends it. */
function tomorrowAtEleven(): string {
  const today = new Date(Date.now() + 5.5 * 3_600_000).toISOString().slice(0, 10)
  const next = new Date(`${today}T00:00:00Z`)
  next.setUTCDate(next.getUTCDate() + 1)
  return `${next.toISOString().slice(0, 10)}T11:00:00+05:30`
}

/** An answered call to a new lead, ended, with "call back" tomorrow 11:00. */
async function calledBack(): Promise<{ leadId: string; callId: string }> {
  const lead = await leadWithPhone(t, receptionist, 2)
  const call = await startCall(t, receptionist, { leadId: lead.id })
  await ended(t, receptionist, call.id)
  const res = await send(t.app, receptionist, 'POST', `/api/calls/${call.id}/disposition`, {
    disposition: 'call_back',
    callBackAt: tomorrowAtEleven(),
  })
  expect(res.statusCode, res.body).toBe(200)
  return { leadId: lead.id, callId: call.id }
}

/** Moves a call's call-back time (the API takes only future times). */
async function callBackAt(callId: string, at: ReturnType<typeof sql>) {
  await queryRows(t.db, sql`update calls set call_back_at = ${at} where id = ${callId}`)
}

// Earlier today in India (never yesterday, even just after midnight there).
const earlierToday = sql`greatest(now() - interval '1 minute',
  ((now() at time zone 'Asia/Kolkata')::date)::timestamp at time zone 'Asia/Kolkata')`
const yesterday = sql`(((now() at time zone 'Asia/Kolkata')::date - 1) + time '11:00') at time zone 'Asia/Kolkata'`

describe('Follow-ups counts due call-backs', () => {
  it('a call-back tomorrow is not due yet; due today it counts; before today it is overdue', async () => {
    const before = await statsNow()
    expect(before.followUps).toBe(0)

    const { callId } = await calledBack()
    // Tomorrow's call-back is not due today, and the call itself was a contact.
    expect((await statsNow()).followUps).toBe(0)

    await callBackAt(callId, earlierToday)
    let now = await statsNow()
    expect(now.followUps).toBe(1)
    expect(now.trends.followUpsOverdue).toBe(0)

    await callBackAt(callId, yesterday)
    now = await statsNow()
    expect(now.followUps).toBe(1)
    expect(now.trends.followUpsOverdue).toBe(1)
    expect(now.bellCount).toBe(before.bellCount + 1)
  })

  it('a later call on the lead replaces its call-back', async () => {
    const start = (await statsNow()).followUps
    const { leadId, callId } = await calledBack()
    await callBackAt(callId, yesterday)
    expect((await statsNow()).followUps).toBe(start + 1)

    const again = await startCall(t, receptionist, { leadId })
    await ended(t, receptionist, again.id)
    expect((await statsNow()).followUps).toBe(start)
  })

  it('counts a lead due both ways once, and not a converted or rejected lead', async () => {
    const start = await statsNow()
    const { leadId, callId } = await calledBack()
    await callBackAt(callId, earlierToday)
    // Its last contact also long ago: due by the follow-up days too, still one follow-up.
    await queryRows(
      t.db,
      sql`update leads set status = 'contacted', last_contact_at = now() - interval '10 days'
          where id = ${leadId}`,
    )
    expect((await statsNow()).followUps).toBe(start.followUps + 1)

    await queryRows(t.db, sql`update leads set status = 'rejected' where id = ${leadId}`)
    expect((await statsNow()).followUps).toBe(start.followUps)
  })

  it("another hospital's call-backs are not counted", async () => {
    const start = (await statsNow()).followUps
    const other = await login(t.app, demoEmail('receptionist', 'smiledental'))
    await verifyMyPhone(t, other)
    await setCallingHours(t, await hospitalIdOf(t.db, 'smiledental'), '00:00', '00:00')
    const lead = await leadWithPhone(t, other, 4)
    const call = await startCall(t, other, { leadId: lead.id })
    await ended(t, other, call.id)
    const res = await send(t.app, other, 'POST', `/api/calls/${call.id}/disposition`, {
      disposition: 'call_back',
      callBackAt: tomorrowAtEleven(),
    })
    expect(res.statusCode, res.body).toBe(200)
    await callBackAt(call.id, yesterday)
    expect((await statsNow()).followUps).toBe(start)
  })
})
