import { eq, inArray, sql } from 'drizzle-orm'
import type { AppDb, Tx } from '../client'
import { hospitals } from '../schema/hospitals'

/*
 * Demo dates stay current (issue 40 item 20). The demo is seeded around the moment it was
 * seeded: a week of appointments back and some days ahead, leads of the last weeks, activity of
 * this week. A demo started again weeks later on the same (embedded) database would show none
 * of today's appointments and only old leads. So at every start the demo hospitals' dates are
 * moved forward by the whole weeks that have passed since the seed (whole weeks keep each
 * appointment on its weekday and inside the doctor's hours): every date and time column of
 * every row of that hospital (its own row, its staff, its patients, leads, appointments,
 * reminders and their jobs, invoices, messages, activity ...), birthdays and expiry times aside.
 *
 * The seed moment is read from the data: a demo hospital joined the platform DEMO_SINCE_DAYS
 * before its seed (demo-state.ts), and its own created_at moves with the rest.
 */

export const DEMO_SINCE_DAYS = 270
const DAY = 86_400_000
const WEEK = 7 * DAY
/** Days a unique-keyed table's rows go ahead of any other while they move. */
const FAR = 36_500

/** Columns never moved: a birthday is a birthday; an expiry (a session, a link) keeps its time. */
const keep = (column: string) => /birth|expires/i.test(column)
/** Tables never moved: sign-in sessions and one-time tokens are not demo history. */
const skipTables = new Set(['sessions', 'verifications', 'accounts', '__drizzle_migrations'])

/** Whole weeks between the hospital's seed moment and `now` (0 when less than a week). */
export function weeksBehind(createdAt: Date, now: Date): number {
  const seededAt = createdAt.getTime() + DEMO_SINCE_DAYS * DAY
  return Math.max(0, Math.floor((now.getTime() - seededAt) / WEEK))
}

interface DatedColumn {
  table: string
  column: string
}

async function datedColumns(tx: Tx): Promise<Map<string, string[]>> {
  const rows = (await tx.execute(sql`
    select c.table_name as "table", c.column_name as "column"
    from information_schema.columns c
    join information_schema.tables t
      on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
    where c.table_schema = 'public'
      and c.data_type in ('timestamp with time zone', 'timestamp without time zone', 'date')
      and c.is_generated = 'NEVER'
      and (c.table_name = 'hospitals' or exists (
        select 1 from information_schema.columns h
        where h.table_schema = 'public' and h.table_name = c.table_name and h.column_name = 'hospital_id'))
    order by c.table_name, c.ordinal_position`)) as unknown as
    { rows?: DatedColumn[] } | DatedColumn[]
  const list = Array.isArray(rows) ? rows : (rows.rows ?? [])
  const byTable = new Map<string, string[]>()
  for (const { table, column } of list) {
    if (skipTables.has(table) || keep(column)) continue
    byTable.set(table, [...(byTable.get(table) ?? []), column])
  }
  return byTable
}

/**
 * Moves one hospital's dates forward by `days` in the caller's transaction, as the connecting
 * role with app.hospital_id set (the tenant policies then show its rows). A table that cannot
 * be updated (an append-only log refuses it) keeps its dates: its name is returned.
 */
async function shiftHospital(
  tx: Tx,
  hospitalId: string,
  days: number,
  columns: Map<string, string[]>,
): Promise<string[]> {
  await tx.execute(
    sql`select set_config('role', 'none', true), set_config('app.hospital_id', ${hospitalId}, true)`,
  )
  const skipped: string[] = []
  for (const [table, cols] of columns) {
    const set = (by: number) =>
      sql.join(
        cols.map(
          (c) => sql`${sql.identifier(c)} = ${sql.identifier(c)} + ${by}::int * interval '1 day'`,
        ),
        sql`, `,
      )
    const key = sql.identifier(table === 'hospitals' ? 'id' : 'hospital_id')
    const update = (by: number) =>
      tx.execute(
        sql`update ${sql.identifier(table)} set ${set(by)} where ${key} = ${hospitalId}::uuid`,
      )
    await tx.execute(sql`savepoint demo_shift`)
    try {
      try {
        await update(days)
      } catch (error) {
        // A date in a unique key (a day's row): rows would pass over each other one by one.
        // Far ahead first, then back: no row meets another on the way.
        if ((error as { cause?: { code?: string } }).cause?.code !== '23505') throw error
        await tx.execute(sql`rollback to savepoint demo_shift`)
        await update(days + FAR)
        await update(-FAR)
      }
      await tx.execute(sql`release savepoint demo_shift`)
    } catch (error) {
      await tx.execute(sql`rollback to savepoint demo_shift`)
      const cause = (error as { cause?: { message?: string } }).cause?.message
      skipped.push(`${table} (${cause ?? (error as Error).message})`)
    }
  }
  return skipped
}

export interface DemoShift {
  /** Days each moved demo hospital went forward (by its email). */
  moved: Record<string, number>
  /** Tables whose dates could not be moved, each with the reason. */
  skipped: string[]
}

/**
 * At start, when the demo is complete: moves each demo hospital whose seed is a week or more
 * behind `now` forward by the whole weeks. One transaction under the seed's advisory lock (two
 * instances starting together move it once: the second re-reads and finds it current).
 */
export async function keepDemoCurrent(
  db: AppDb,
  demo: readonly { email: string }[],
  lockKey: bigint,
  now: Date = new Date(),
): Promise<DemoShift> {
  const emails = demo.map((h) => h.email)
  const read = (tx: Tx) =>
    tx
      .select({ id: hospitals.id, email: hospitals.email, createdAt: hospitals.createdAt })
      .from(hospitals)
      .where(inArray(hospitals.email, emails))
  const result: DemoShift = { moved: {}, skipped: [] }
  const first = await db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('role', 'none', true)`)
    return read(tx as Tx)
  })
  if (!first.some((h) => weeksBehind(h.createdAt, now) > 0)) return result
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${lockKey.toString()}::bigint)`)
    await tx.execute(sql`select set_config('role', 'none', true)`)
    const rows = await read(tx as Tx)
    const columns = await datedColumns(tx as Tx)
    for (const h of rows) {
      const weeks = weeksBehind(h.createdAt, now)
      if (!weeks) continue
      const skipped = await shiftHospital(tx as Tx, h.id, weeks * 7, columns)
      result.moved[h.email] = weeks * 7
      for (const t of skipped) if (!result.skipped.includes(t)) result.skipped.push(t)
      await tx.execute(sql`select set_config('role', 'none', true)`)
      // The hospital's own row (the seed moment) must have moved, or the next start would
      // move it all again.
      const [moved] = await tx
        .select({ createdAt: hospitals.createdAt })
        .from(hospitals)
        .where(eq(hospitals.id, h.id))
      if (moved && weeksBehind(moved.createdAt, now) > 0)
        throw new Error(`demo date shift: ${h.email} did not move`)
    }
  })
  return result
}
