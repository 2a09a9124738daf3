import { type SQL, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_FOLLOW_UP_DAYS, type Stats, stats } from '../../src/shared/schemas/leads'
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

beforeAll(async () => {
  t = await createTestApp()
  viewer = await login(t.app, demoEmail('viewer'))
  hospitalId = await hospitalIdOf(t.db, 'sanjeevani')
  // A controlled data set: whatever the demo seed gave this hospital goes.
  await queryRows(t.db, sql`delete from leads where hospital_id = ${hospitalId}`)
  await queryRows(t.db, sql`delete from lead_settings where hospital_id = ${hospitalId}`)
})
afterAll(async () => {
  await t?.close()
})

async function statsNow(cookie = viewer): Promise<Stats> {
  const res = await call(t.app, cookie, 'GET', '/api/stats')
  expect(res.statusCode, res.body).toBe(200)
  return stats.strict().parse(res.json())
}

/** A moment on a calendar day in India: `daysAgo` days before today there, at `time`. */
const ist = (daysAgo: number, time: string): SQL =>
  sql`((((now() at time zone 'Asia/Kolkata')::date - ${daysAgo}::int) + ${time}::time) at time zone 'Asia/Kolkata')`

let phone = 9_600_000_000
async function addLead(
  name: string,
  status: string,
  created: SQL,
  lastContact: SQL | null = null,
): Promise<string> {
  phone++
  const [row] = await queryRows<{ id: string }>(
    t.db,
    // A converted lead points at its patient (CHECK leads_converted_patient_check, 0015).
    sql`insert into leads (hospital_id, name, phone, status, source, created_at, updated_at, last_contact_at, patient_id)
        values (${hospitalId}, ${name}, ${`+91${phone}`}, ${status}, 'manual', ${created}, ${created},
                ${lastContact ?? sql`null`},
                case when ${status} = 'converted'
                  then (select id from patients where hospital_id = ${hospitalId} order by id limit 1) end)
        returning id`,
  )
  return row!.id
}

describe('GET /api/stats', () => {
  it('is all zeros for a hospital without leads, with no week-on-week change', async () => {
    expect(await statsNow()).toEqual({
      totalLeads: 0,
      newLeads: 0,
      followUps: 0,
      converted: 0,
      followUpDays: DEFAULT_FOLLOW_UP_DAYS,
      trends: { totalChangePct: null, newToday: 0, conversionRate: 0, followUpsOverdue: 0 },
      unreadInbound: 0,
      bellCount: 0,
    })
  })

  it('counts the controlled set on calendar days in Asia/Kolkata', async () => {
    // Follow-ups (3 days): due on the third day after the last contact's day in India.
    await addLead(
      'A due today (contact 3 days ago, 00:00:01)',
      'contacted',
      ist(5, '10:00'),
      ist(3, '00:00:01'),
    )
    await addLead(
      'B due today (contact 3 days ago, 23:59)',
      'contacted',
      ist(6, '00:00'),
      ist(3, '23:59'),
    )
    await addLead(
      'C overdue (contact 4 days ago, 23:59:59)',
      'follow-up',
      ist(7, '23:59:59'),
      ist(4, '23:59:59'),
    )
    await addLead(
      'D due tomorrow (contact 2 days ago)',
      'contacted',
      ist(3, '00:00'),
      ist(2, '00:00'),
    )
    await addLead('E overdue, never contacted', 'follow-up', ist(10, '12:00'))
    const f = await addLead('F new, old', 'new', ist(10, '12:00'))
    await addLead('G converted', 'converted', ist(13, '00:00'), ist(12, '09:00'))
    await addLead('H rejected', 'rejected', ist(20, '12:00'), ist(20, '13:00'))
    await addLead('I new today', 'new', ist(0, '00:00:01'))
    await addLead('J new yesterday, last second', 'new', ist(1, '23:59:59'))
    // Inbound messages: two unread, one read; an outbound one never counts.
    for (const [direction, read] of [
      ['inbound', false],
      ['inbound', false],
      ['inbound', true],
      ['outbound', false],
    ] as const) {
      await queryRows(
        t.db,
        sql`insert into communications (hospital_id, lead_id, type, direction, content, status, read_at)
            values (${hospitalId}, ${f}, 'whatsapp', ${direction}, 'Hi', 'received',
                    ${read ? sql`now()` : sql`null`})`,
      )
    }

    expect(await statsNow()).toEqual({
      totalLeads: 10,
      newLeads: 3, // F, I, J
      followUps: 4, // A, B, C, E
      converted: 1,
      followUpDays: 3,
      trends: {
        // Last 7 days (today and the 6 before): A, B (first second), D, I, J = 5;
        // the 7 before: C (last second), E, F, G (first second) = 4; (5 - 4) / 4.
        totalChangePct: 25,
        newToday: 1,
        conversionRate: 10,
        followUpsOverdue: 2, // C, E
      },
      unreadInbound: 2,
      bellCount: 4,
    })
  })

  it('uses the hospital’s follow-up days', async () => {
    await queryRows(
      t.db,
      sql`insert into lead_settings (hospital_id, follow_up_days) values (${hospitalId}, 5)`,
    )
    const s = await statsNow()
    // Due 5 days after: only E (never contacted, created 10 days ago) is due, and overdue.
    expect(s).toMatchObject({ followUpDays: 5, followUps: 1, bellCount: 3 })
    expect(s.trends.followUpsOverdue).toBe(1)
    await queryRows(t.db, sql`delete from lead_settings where hospital_id = ${hospitalId}`)
  })

  it('rounds the conversion rate to one decimal and the change to a whole percent', async () => {
    // 11 leads, 1 converted: 9.0909 → 9.1; this week 6 against 4: +50.
    await addLead('K new today', 'new', ist(0, '00:00:02'))
    const s = await statsNow()
    expect(s.trends.conversionRate).toBe(9.1)
    expect(s.trends.totalChangePct).toBe(50)
    // Fewer this week than the week before is a negative change: 1 vs 4 → -75.
    await queryRows(
      t.db,
      sql`update leads set created_at = ${ist(30, '12:00')}
          where hospital_id = ${hospitalId} and name ~ '^(A|B|D|I|K) '`,
    )
    expect((await statsNow()).trends.totalChangePct).toBe(-75)
  })

  it('follows the hospital’s time zone', async () => {
    // Midnight in Kolkata and in Kiritimati (UTC+14) are 8.5 or 15.5 hours apart. A lead made a
    // second before the later of today's two midnights is today's in one zone, not the other.
    const start = (zone: string) =>
      sql`((now() at time zone ${zone})::date)::timestamp at time zone ${zone}`
    await queryRows(
      t.db,
      sql`update leads set created_at = greatest(${start('Asia/Kolkata')}, ${start('Pacific/Kiritimati')}) - interval '1 second'
          where hospital_id = ${hospitalId} and name ~ '^J '`,
    )
    const [zones] = await queryRows<{ kolkata: number; kiritimati: number }>(
      t.db,
      sql`select count(*) filter (where created_at >= ${start('Asia/Kolkata')})::int as kolkata,
                 count(*) filter (where created_at >= ${start('Pacific/Kiritimati')})::int as kiritimati
          from leads where hospital_id = ${hospitalId}`,
    )
    expect(Math.abs(zones!.kolkata - zones!.kiritimati)).toBe(1)
    expect((await statsNow()).trends.newToday).toBe(zones!.kolkata)
    await queryRows(
      t.db,
      sql`update hospitals set time_zone = 'Pacific/Kiritimati' where id = ${hospitalId}`,
    )
    try {
      expect((await statsNow()).trends.newToday).toBe(zones!.kiritimati)
    } finally {
      await queryRows(
        t.db,
        sql`update hospitals set time_zone = 'Asia/Kolkata' where id = ${hospitalId}`,
      )
    }
  })

  it('counts only the caller’s hospital', async () => {
    const smile = await login(t.app, demoEmail('admin', 'smiledental'))
    const smileId = await hospitalIdOf(t.db, 'smiledental')
    const [row] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from leads where hospital_id = ${smileId}`,
    )
    expect((await statsNow(smile)).totalLeads).toBe(row!.n)
  })
})
