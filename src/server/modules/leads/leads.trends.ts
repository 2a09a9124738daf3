import { sql } from 'drizzle-orm'
import {
  LEAD_TREND_DAYS,
  type LeadSource,
  leadSources,
  type LeadTrends,
} from '../../../shared/schemas/leads'
import type { Tx } from '../../db/client'
import { leads } from '../../db/schema/leads'
import { withTenant } from '../../db/tenant'
import type { TenantOptions } from './leads.rows'
import { timeZoneOf } from './leads.stats'

type DayRow = { date: string } & Record<LeadSource, number>

/** Rows of a raw statement; both drivers answer `{ rows }`. */
async function rowsOf<T>(tx: Tx, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows
}

/**
 * Leads created on each of the last LEAD_TREND_DAYS calendar days in `tz` (today included),
 * one column per source. The days are local midnights from generate_series over wall-clock
 * timestamps (no time zone), so a DST change never shifts a day; each lead joins the day whose
 * [midnight, next midnight) range holds it, and days without leads still come out (zeros).
 */
function perDay(tz: string) {
  const today = sql`date_trunc('day', now() at time zone ${tz})`
  const bySource = leadSources.map(
    (source) =>
      sql`(count(${leads.id}) filter (where ${leads.source} = ${source}))::int as ${sql.identifier(source)}`,
  )
  return sql`
    select to_char(d.day, 'YYYY-MM-DD') as date, ${sql.join(bySource, sql`, `)}
    from generate_series(${today} - make_interval(days => ${LEAD_TREND_DAYS - 1}::int), ${today}, interval '1 day') as d(day)
    left join ${leads}
      on ${leads.createdAt} >= (d.day at time zone ${tz})
      and ${leads.createdAt} < ((d.day + interval '1 day') at time zone ${tz})
    group by d.day
    order by d.day`
}

/** The funnel rule is the contract's (shared/schemas/leads.ts, leadTrends): by current status. */
const n = (statuses: string[]) =>
  sql<number>`(count(*) filter (where ${leads.status} in (${sql.join(
    statuses.map((s) => sql`${s}`),
    sql`, `,
  )})))::int`

/**
 * GET /api/leads/trends: leads per day by source for the last 30 days in the hospital's time
 * zone, and the funnel new → contacted → follow-up → converted. One statement for each part,
 * both in one tenant transaction (so they see the same leads).
 */
export async function leadTrends(opts: TenantOptions): Promise<LeadTrends> {
  const tz = await timeZoneOf(opts.db, opts.hospitalId)
  return withTenant(opts.db, opts, async (tx) => {
    const dayRows = await rowsOf<DayRow>(tx, perDay(tz))
    const [funnel] = await tx
      .select({
        new: n(['new', 'contacted', 'follow-up', 'converted']),
        contacted: n(['contacted', 'follow-up', 'converted']),
        followUp: n(['follow-up', 'converted']),
        converted: n(['converted']),
      })
      .from(leads)
    return {
      days: dayRows.map(({ date, ...counts }) => ({
        date,
        counts: Object.fromEntries(leadSources.map((s) => [s, Number(counts[s])])) as Record<
          LeadSource,
          number
        >,
      })),
      funnel: funnel ?? { new: 0, contacted: 0, followUp: 0, converted: 0 },
    }
  })
}
