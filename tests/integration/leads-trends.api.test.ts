import { type SQL, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  LEAD_TREND_DAYS,
  type LeadSource,
  leadSources,
  type LeadTrends,
  leadTrends,
} from '../../src/shared/schemas/leads'
import { expectError } from '../support/http'
import { call } from '../support/leads'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

let t: TestApp
let viewer: string
let hospitalId: string
let otherHospitalId: string

beforeAll(async () => {
  t = await createTestApp()
  viewer = await login(t.app, demoEmail('viewer'))
  hospitalId = await hospitalIdOf(t.db, 'sanjeevani')
  otherHospitalId = await hospitalIdOf(t.db, 'smiledental')
  // A controlled data set: whatever the demo seed gave this hospital goes.
  await queryRows(t.db, sql`delete from leads where hospital_id = ${hospitalId}`)
})
afterAll(async () => {
  await t?.close()
})

async function trendsNow(cookie = viewer): Promise<LeadTrends> {
  const res = await call(t.app, cookie, 'GET', '/api/leads/trends')
  expect(res.statusCode, res.body).toBe(200)
  return leadTrends.strict().parse(res.json())
}

/** A moment on a calendar day in India: `daysAgo` days before today there, at `time`. */
const ist = (daysAgo: number, time: string): SQL =>
  sql`((((now() at time zone 'Asia/Kolkata')::date - ${daysAgo}::int) + ${time}::time) at time zone 'Asia/Kolkata')`

/** The calendar day `daysAgo` days before today in `zone`, as 'YYYY-MM-DD'. */
async function dayIn(zone: string, daysAgo = 0): Promise<string> {
  const [row] = await queryRows<{ d: string }>(
    t.db,
    sql`select to_char((now() at time zone ${zone})::date - ${daysAgo}::int, 'YYYY-MM-DD') as d`,
  )
  return row!.d
}

let phone = 9_500_000_000
async function addLead(
  created: SQL,
  { source = 'manual', status = 'new', hospital = hospitalId } = {},
): Promise<void> {
  phone++
  await queryRows(
    t.db,
    // A converted lead points at its patient (CHECK leads_converted_patient_check, 0015).
    sql`insert into leads (hospital_id, name, phone, status, source, created_at, updated_at, patient_id)
        values (${hospital}, 'Trend lead', ${`+91${phone}`}, ${status}, ${source}, ${created}, ${created},
                case when ${status} = 'converted'
                  then (select id from patients where hospital_id = ${hospital} order by id limit 1) end)`,
  )
}

const zeros = () => Object.fromEntries(leadSources.map((s) => [s, 0])) as Record<LeadSource, number>
const countsOn = (trends: LeadTrends, date: string) =>
  trends.days.find((d) => d.date === date)?.counts

describe('GET /api/leads/trends', () => {
  it('answers 401 when signed out', async () => {
    expectError(await call(t.app, undefined, 'GET', '/api/leads/trends'), 401)
  })

  it('is 30 zero-filled Kolkata days ending today, oldest first, for a hospital without leads', async () => {
    const trends = await trendsNow()
    expect(trends.days).toHaveLength(LEAD_TREND_DAYS)
    expect(trends.days.at(-1)!.date).toBe(await dayIn('Asia/Kolkata'))
    expect(trends.days[0]!.date).toBe(await dayIn('Asia/Kolkata', LEAD_TREND_DAYS - 1))
    // Consecutive calendar days.
    for (let i = 1; i < trends.days.length; i++) {
      const step = Date.parse(trends.days[i]!.date) - Date.parse(trends.days[i - 1]!.date)
      expect(step).toBe(24 * 3600 * 1000)
    }
    for (const day of trends.days) expect(day.counts).toEqual(zeros())
    expect(trends.funnel).toEqual({ new: 0, contacted: 0, followUp: 0, converted: 0 })
  })

  it('counts each lead on its calendar day in Asia/Kolkata, by source, and fills the gaps', async () => {
    await addLead(ist(0, '00:00:00'), { source: 'meta-facebook' }) // today's first second
    await addLead(ist(0, '00:00:01'), { source: 'meta-facebook' })
    await addLead(ist(0, '12:00'), { source: 'referral' })
    await addLead(ist(1, '23:59:59'), { source: 'meta-instagram' }) // yesterday's last second
    await addLead(ist(29, '00:00:00'), { source: 'google-ads' }) // the oldest day's first second
    await addLead(ist(30, '23:59:59'), { source: 'walk-in' }) // a second too old
    await addLead(ist(45, '12:00'), { source: 'csv-import' })

    const trends = await trendsNow()
    expect(trends.days).toHaveLength(LEAD_TREND_DAYS)
    expect(countsOn(trends, await dayIn('Asia/Kolkata'))).toEqual({
      ...zeros(),
      'meta-facebook': 2,
      referral: 1,
    })
    expect(countsOn(trends, await dayIn('Asia/Kolkata', 1))).toEqual({
      ...zeros(),
      'meta-instagram': 1,
    })
    expect(trends.days[0]).toEqual({
      date: await dayIn('Asia/Kolkata', 29),
      counts: { ...zeros(), 'google-ads': 1 },
    })
    // Every other day is there, with zeros; the two older leads count on no day.
    const total = trends.days.flatMap((d) => Object.values(d.counts)).reduce((a, b) => a + b, 0)
    expect(total).toBe(5)
    expect(trends.days.filter((d) => Object.values(d.counts).some(Boolean))).toHaveLength(3)
  })

  it('counts a lead in its stage and every stage before it; rejected in none', async () => {
    await queryRows(t.db, sql`delete from leads where hospital_id = ${hospitalId}`)
    const statuses = {
      new: 2,
      contacted: 1,
      'follow-up': 1,
      converted: 3,
      rejected: 2,
    }
    for (const [status, n] of Object.entries(statuses)) {
      // Old leads count too: the funnel is over all the hospital's leads.
      for (let i = 0; i < n; i++) await addLead(ist(i * 40, '10:00'), { status })
    }
    expect((await trendsNow()).funnel).toEqual({
      new: 7, // all but the 2 rejected
      contacted: 5, // contacted 1 + follow-up 1 + converted 3
      followUp: 4, // follow-up 1 + converted 3
      converted: 3,
    })
  })

  it('never counts another hospital’s leads', async () => {
    const before = await trendsNow()
    for (const status of ['new', 'contacted', 'follow-up', 'converted']) {
      await addLead(ist(0, '09:00'), { status, source: 'referral', hospital: otherHospitalId })
    }
    expect(await trendsNow()).toEqual(before)

    // The other hospital sees its own: the seed's leads plus these four.
    const smile = await login(t.app, demoEmail('admin', 'smiledental'))
    const [own] = await queryRows<{ n: number; converted: number }>(
      t.db,
      sql`select count(*) filter (where status <> 'rejected')::int as n,
                 count(*) filter (where status = 'converted')::int as converted
          from leads where hospital_id = ${otherHospitalId}`,
    )
    const theirs = await trendsNow(smile)
    expect(theirs.funnel.new).toBe(own!.n)
    expect(theirs.funnel.converted).toBe(own!.converted)
    expect(countsOn(theirs, await dayIn('Asia/Kolkata'))!.referral).toBeGreaterThanOrEqual(4)
  })

  it('follows the hospital’s time zone', async () => {
    // Kiritimati (UTC+14) starts a day 8.5 hours before Kolkata: 15:30 in Kolkata yesterday
    // is already midnight of Kolkata's today there, 15:29:59 is the evening before.
    await addLead(ist(1, '15:29:59'), { source: 'csv-import' })
    await addLead(ist(1, '15:30:00'), { source: 'csv-import' })
    const [today, yesterday] = [await dayIn('Asia/Kolkata'), await dayIn('Asia/Kolkata', 1)]
    const kolkata = await trendsNow()
    expect(countsOn(kolkata, yesterday)!['csv-import']).toBe(2)
    expect(countsOn(kolkata, today)!['csv-import']).toBe(0)
    await queryRows(
      t.db,
      sql`update hospitals set time_zone = 'Pacific/Kiritimati' where id = ${hospitalId}`,
    )
    try {
      const kiritimati = await trendsNow()
      expect(kiritimati.days).toHaveLength(LEAD_TREND_DAYS)
      expect(kiritimati.days.at(-1)!.date).toBe(await dayIn('Pacific/Kiritimati'))
      expect(countsOn(kiritimati, yesterday)!['csv-import']).toBe(1)
      expect(countsOn(kiritimati, today)!['csv-import']).toBe(1)
    } finally {
      await queryRows(
        t.db,
        sql`update hospitals set time_zone = 'Asia/Kolkata' where id = ${hospitalId}`,
      )
    }
  })
})
