import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTenant } from '../../src/server/db/tenant'
import { CALLS_REPORT_CSV_HEADER } from '../../src/server/modules/calls/calls-report.service'
import { logPastCall } from '../../src/server/modules/calls/past-call'
import { callsReport } from '../../src/shared/schemas/calls-report'
import { leadWithPhone, send } from '../support/calls'
import { expectError, issuePaths } from '../support/http'
import { login } from '../support/login'
import { createTestApp, demoEmail, hospitalIdOf, type TestApp, userIdOf } from '../support/test-app'

// Issue 41: the calls report per day, staff member, outcome and disposition, the first-response
// time to new leads, and its CSV; admins only; another hospital's calls never in it.

let t: TestApp
let admin: string
let adminB: string
let receptionist: string
let hospitalA: string
let receptionistId: string
let doctorId: string

const ist = (date: string, time: string) => new Date(`${date}T${time}:00+05:30`)
const RANGE = 'from=2025-02-01&to=2025-02-02'

beforeAll(async () => {
  t = await createTestApp()
  admin = await login(t.app, demoEmail('admin'))
  adminB = await login(t.app, demoEmail('admin', 'smiledental'))
  receptionist = await login(t.app, demoEmail('receptionist'))
  hospitalA = await hospitalIdOf(t.db, 'sanjeevani')
  receptionistId = await userIdOf(t.db, demoEmail('receptionist'))
  doctorId = await userIdOf(t.db, demoEmail('doctor'))
  // Two new leads on 1 Feb 2025 (IST): the first called 30 minutes after it came, the second
  // never; the doctor's call the next day rang out.
  const first = await leadWithPhone(t, admin, 1)
  const second = await leadWithPhone(t, admin, 2)
  await t.db.execute(
    sql`update leads set created_at = ${ist('2025-02-01', '09:00').toISOString()} where id = ${first.id}`,
  )
  await t.db.execute(
    sql`update leads set created_at = ${ist('2025-02-01', '10:00').toISOString()} where id = ${second.id}`,
  )
  await withTenant(t.db, { hospitalId: hospitalA, userId: receptionistId }, async (tx) => {
    await logPastCall(tx, {
      hospitalId: hospitalA,
      userId: receptionistId,
      contact: { leadId: first.id },
      startedAt: ist('2025-02-01', '09:30'),
      ringSeconds: 10,
      outcome: 'answered',
      talkSeconds: 120,
      disposition: { disposition: 'interested' },
    })
    await logPastCall(tx, {
      hospitalId: hospitalA,
      userId: doctorId,
      contact: { leadId: first.id },
      startedAt: ist('2025-02-02', '23:40'),
      ringSeconds: 30,
      outcome: 'no-answer',
    })
  })
})
afterAll(async () => {
  await t?.close()
})

describe('GET /api/calls/report', () => {
  it('sums the range by day (the hospital’s), staff member, outcome and disposition', async () => {
    const res = await send(t.app, admin, 'GET', `/api/calls/report?${RANGE}`)
    expect(res.statusCode, res.body).toBe(200)
    const report = callsReport.strict().parse(res.json())
    expect(report).toMatchObject({ from: '2025-02-01', to: '2025-02-02', timeZone: 'Asia/Kolkata' })
    expect(report.totals).toEqual({
      calls: 2,
      answered: 1,
      missed: 1,
      talkSeconds: 120,
      outbound: 2,
      inbound: 0,
    })
    // 23:40 IST on 2 Feb is 18:10 UTC: still 2 Feb.
    expect(report.byDay).toEqual([
      { date: '2025-02-01', calls: 1, answered: 1, missed: 0, talkSeconds: 120 },
      { date: '2025-02-02', calls: 1, answered: 0, missed: 1, talkSeconds: 0 },
    ])
    expect(report.byStaff.map((s) => [s.userId, s.calls, s.talkSeconds]).sort()).toEqual(
      [
        [receptionistId, 1, 120],
        [doctorId, 1, 0],
      ].sort(),
    )
    expect(report.byStaff.every((s) => s.userName.length > 0)).toBe(true)
    expect(report.byOutcome.sort((a, b) => a.outcome.localeCompare(b.outcome))).toEqual([
      { outcome: 'answered', calls: 1 },
      { outcome: 'no-answer', calls: 1 },
    ])
    expect(report.byDisposition).toEqual([{ disposition: 'interested', calls: 1 }])
    expect(report.firstResponse).toEqual({
      newLeads: 2,
      called: 1,
      calledWithinHour: 1,
      medianMinutes: 30,
      averageMinutes: 30,
    })
  })

  it('shows another hospital none of it, and defaults to the last 7 days', async () => {
    const other = callsReport.parse(
      (await send(t.app, adminB, 'GET', `/api/calls/report?${RANGE}`)).json(),
    )
    expect(other.totals.calls).toBe(0)
    expect(other.firstResponse.newLeads).toBe(0)
    const recent = callsReport.parse((await send(t.app, admin, 'GET', '/api/calls/report')).json())
    const days = (Date.parse(recent.to) - Date.parse(recent.from)) / 86_400_000
    expect(days).toBe(6)
  })

  it('is for admins, and refuses bad ranges with the field', async () => {
    expectError(await send(t.app, receptionist, 'GET', `/api/calls/report?${RANGE}`), 403)
    expectError(await send(t.app, receptionist, 'GET', `/api/calls/report.csv?${RANGE}`), 403)
    expectError(await send(t.app, undefined, 'GET', `/api/calls/report?${RANGE}`), 401)
    for (const [query, path] of [
      ['from=2025-02-03&to=2025-02-01', 'from'],
      ['from=2023-01-01&to=2025-01-01', 'from'],
      ['from=nope', 'from'],
      ['to=2025-02-30', 'to'],
      ['since=2025-02-01', ''],
    ] as const) {
      const res = await send(t.app, admin, 'GET', `/api/calls/report?${query}`)
      expectError(res, 400, 'VALIDATION')
      if (path) expect(issuePaths(res), query).toContain(path)
    }
  })
})

describe('GET /api/calls/report.csv', () => {
  it('downloads a row per day and staff member, then the totals', async () => {
    const res = await send(t.app, admin, 'GET', `/api/calls/report.csv?${RANGE}`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="calls-2025-02-01-to-2025-02-02.csv"',
    )
    const lines = res.body.trim().split('\r\n')
    expect(lines[0]).toBe(CALLS_REPORT_CSV_HEADER.join(','))
    expect(lines).toHaveLength(4)
    expect(lines[1]).toMatch(/^2025-02-01,[^,]+,1,1,0,0,0,2\.0$/)
    expect(lines[2]).toMatch(/^2025-02-02,[^,]+,1,0,1,0,0,0\.0$/)
    expect(lines[3]).toBe('Total,,2,1,1,0,0,2.0')
  })
})
