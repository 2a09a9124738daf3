import { and, gte, lt, sql } from 'drizzle-orm'
import {
  CALLS_REPORT_MAX_DAYS,
  type CallsReport,
  type CallsReportQuery,
} from '../../../shared/schemas/calls-report'
import { csvLine } from '../../../shared/schemas/lead-import'
import type { AppDb, Tx } from '../../db/client'
import { calls } from '../../db/schema/calls'
import { withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { dateIn, zonedInstant } from '../booking/booking-slots'
import { timeZoneOf } from '../leads/leads.stats'
import { FORMER_MEMBER, hospitalMembers } from '../live-monitoring/members'
import type { CallsActor } from './calls.service'

/**
 * The calls report (issue 41; shapes in src/shared/schemas/calls-report.ts): the range's calls
 * per day, per staff member, per outcome and per disposition, and the first-response time to
 * the range's new leads (from a lead's arrival to its first outbound call). Days are the
 * hospital's; the reads run in its tenant transaction on calls_hospital_created_idx.
 */

const DAY_MS = 86_400_000

export interface ReportRange {
  from: string
  to: string
  timeZone: string
  start: Date
  end: Date
}

const nextDay = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10)

/** The range asked for (default: the 7 days up to today), checked against the maximum. */
export async function reportRange(
  db: AppDb,
  hospitalId: string,
  query: CallsReportQuery,
  now = new Date(),
): Promise<ReportRange> {
  const timeZone = await timeZoneOf(db, hospitalId)
  const today = dateIn(now, timeZone)
  const to = query.to ?? (query.from && query.from > today ? query.from : today)
  const from =
    query.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - 6 * DAY_MS).toISOString().slice(0, 10)
  const days = Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1
  if (days > CALLS_REPORT_MAX_DAYS) {
    const message = `Choose at most ${CALLS_REPORT_MAX_DAYS} days`
    throw new AppError('VALIDATION', `Invalid input: from: ${message}`, [{ path: 'from', message }])
  }
  return {
    from,
    to,
    timeZone,
    start: zonedInstant(from, 0, timeZone),
    end: zonedInstant(nextDay(to), 0, timeZone),
  }
}

const figures = {
  calls: sql<number>`count(*)::int`,
  answered: sql<number>`count(*) filter (where ${calls.outcome} = 'answered')::int`,
  missed: sql<number>`count(*) filter (where ${calls.outcome} <> 'answered')::int`,
  talkSeconds: sql<number>`coalesce(sum(${calls.durationSeconds}) filter (where ${calls.outcome} = 'answered'), 0)::int`,
}

const num = (v: unknown) => Number(v ?? 0)
const asFigures = (r: {
  calls: unknown
  answered: unknown
  missed: unknown
  talkSeconds: unknown
}) => ({
  calls: num(r.calls),
  answered: num(r.answered),
  missed: num(r.missed),
  talkSeconds: num(r.talkSeconds),
})

/**
 * The day column (the first selected) by position: its zone is a bound parameter, and
 * PostgreSQL sees `$1` in the select list and `$4` in GROUP BY as different expressions.
 */
const byFirstColumn = sql`1`

async function readReport(tx: Tx, r: ReportRange) {
  const inRange = and(gte(calls.createdAt, r.start), lt(calls.createdAt, r.end))
  const day = sql<string>`to_char(${calls.createdAt} at time zone ${r.timeZone}, 'YYYY-MM-DD')`
  const [totals] = await tx
    .select({
      ...figures,
      outbound: sql<number>`count(*) filter (where ${calls.direction} = 'outbound')::int`,
      inbound: sql<number>`count(*) filter (where ${calls.direction} = 'inbound')::int`,
    })
    .from(calls)
    .where(inRange)
  const byDay = await tx
    .select({ date: day, ...figures })
    .from(calls)
    .where(inRange)
    .groupBy(byFirstColumn)
    .orderBy(byFirstColumn)
  const byStaff = await tx
    .select({ userId: calls.userId, ...figures })
    .from(calls)
    .where(inRange)
    .groupBy(calls.userId)
  const byDayStaff = await tx
    .select({
      date: day,
      userId: calls.userId,
      ...figures,
      noAnswer: sql<number>`count(*) filter (where ${calls.outcome} = 'no-answer')::int`,
      busy: sql<number>`count(*) filter (where ${calls.outcome} = 'busy')::int`,
      failed: sql<number>`count(*) filter (where ${calls.outcome} in ('failed', 'canceled'))::int`,
    })
    .from(calls)
    .where(inRange)
    .groupBy(byFirstColumn, calls.userId)
    .orderBy(byFirstColumn)
  const byOutcome = await tx
    .select({ outcome: calls.outcome, calls: figures.calls })
    .from(calls)
    .where(and(inRange, sql`${calls.outcome} is not null`))
    .groupBy(calls.outcome)
  const byDisposition = await tx
    .select({ disposition: calls.disposition, calls: figures.calls })
    .from(calls)
    .where(and(inRange, sql`${calls.disposition} is not null`))
    .groupBy(calls.disposition)
  // Each new lead's first outbound call, in minutes after it arrived.
  const first = await tx.execute<{
    new_leads: number
    called: number
    within_hour: number
    median: number | null
    average: number | null
  }>(sql`
    with firsts as (
      select l.id, (
        select min(c.created_at) from calls c
        where c.hospital_id = l.hospital_id and c.lead_id = l.id and c.direction = 'outbound'
          and c.created_at >= l.created_at
      ) as first_call, l.created_at
      from leads l
      where l.created_at >= ${r.start.toISOString()} and l.created_at < ${r.end.toISOString()}
    ), waits as (
      select extract(epoch from (first_call - created_at)) / 60.0 as minutes from firsts
      where first_call is not null
    )
    select (select count(*)::int from firsts) as new_leads,
      (select count(*)::int from waits) as called,
      (select count(*)::int from waits where minutes <= 60) as within_hour,
      (select percentile_cont(0.5) within group (order by minutes) from waits) as median,
      (select avg(minutes) from waits) as average`)
  const f = (first as unknown as { rows: Record<string, unknown>[] }).rows[0] ?? {}
  const minutes = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v)))
  return {
    totals: {
      ...asFigures(totals ?? { calls: 0, answered: 0, missed: 0, talkSeconds: 0 }),
      outbound: num(totals?.outbound),
      inbound: num(totals?.inbound),
    },
    byDay: byDay.map((d) => ({ date: d.date, ...asFigures(d) })),
    byStaff,
    byDayStaff,
    byOutcome: byOutcome.flatMap((o) =>
      o.outcome ? [{ outcome: o.outcome, calls: num(o.calls) }] : [],
    ),
    byDisposition: byDisposition.flatMap((d) =>
      d.disposition ? [{ disposition: d.disposition, calls: num(d.calls) }] : [],
    ),
    firstResponse: {
      newLeads: num(f.new_leads),
      called: num(f.called),
      calledWithinHour: num(f.within_hour),
      medianMinutes: minutes(f.median),
      averageMinutes: minutes(f.average),
    },
  }
}

async function memberNames(db: AppDb, hospitalId: string) {
  const names = new Map((await hospitalMembers(db, hospitalId)).map((m) => [m.id, m.name]))
  return (id: string) => names.get(id) ?? FORMER_MEMBER
}

export async function callsReport(
  opts: CallsActor & { query: CallsReportQuery; now?: Date | undefined },
): Promise<CallsReport> {
  const range = await reportRange(opts.db, opts.hospitalId, opts.query, opts.now)
  const data = await withTenant(opts.db, opts, (tx) => readReport(tx, range))
  const name = await memberNames(opts.db, opts.hospitalId)
  return {
    from: range.from,
    to: range.to,
    timeZone: range.timeZone,
    totals: data.totals,
    byDay: data.byDay,
    byStaff: data.byStaff
      .map((s) => ({ userId: s.userId, userName: name(s.userId), ...asFigures(s) }))
      .sort((a, b) => b.calls - a.calls || a.userName.localeCompare(b.userName)),
    byOutcome: data.byOutcome,
    byDisposition: data.byDisposition,
    firstResponse: data.firstResponse,
  }
}

export const CALLS_REPORT_CSV_HEADER = [
  'Date',
  'Staff member',
  'Calls',
  'Answered',
  'No answer',
  'Busy',
  'Failed',
  'Talk time (minutes)',
]

/** The report as CSV: one row per day and staff member, then a total row. */
export async function callsReportCsv(
  opts: CallsActor & { query: CallsReportQuery; now?: Date | undefined },
): Promise<{ filename: string; csv: string }> {
  const range = await reportRange(opts.db, opts.hospitalId, opts.query, opts.now)
  const data = await withTenant(opts.db, opts, (tx) => readReport(tx, range))
  const name = await memberNames(opts.db, opts.hospitalId)
  const talk = (s: number) => (s / 60).toFixed(1)
  let csv = csvLine(CALLS_REPORT_CSV_HEADER)
  for (const r of data.byDayStaff) {
    csv += csvLine([
      r.date,
      name(r.userId),
      String(num(r.calls)),
      String(num(r.answered)),
      String(num(r.noAnswer)),
      String(num(r.busy)),
      String(num(r.failed)),
      talk(num(r.talkSeconds)),
    ])
  }
  const t = data.totals
  const sum = (k: 'noAnswer' | 'busy' | 'failed') =>
    String(data.byDayStaff.reduce((n, r) => n + num(r[k]), 0))
  csv += csvLine([
    'Total',
    '',
    String(t.calls),
    String(t.answered),
    sum('noAnswer'),
    sum('busy'),
    sum('failed'),
    talk(t.talkSeconds),
  ])
  return { filename: `calls-${range.from}-to-${range.to}.csv`, csv }
}
