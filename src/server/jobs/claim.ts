import { sql, type SQL } from 'drizzle-orm'
import type { AppDb, Tx } from '../db/client'
import { withPlatform } from '../db/tenant'
import { nameLimits } from './claim-limits'
import type { ClaimedJob } from './registry'
import { ms } from './store'

/**
 * Fair claiming (docs/decisions/020-fair-jobs.md). Each hospital is a lane (platform jobs are
 * one more, PLATFORM_LANE); a claim serves the lane with claimable work that was served least
 * recently, so hospital A's backlog of 5,000 waits while hospital B's next job runs. A lane
 * at its cap of running jobs (job_lanes.max_running, else the worker's perHospitalRunning) is
 * passed over, and so is a job name at its per-hospital limit (registerHandler options).
 *
 * One short platform transaction of two statements, nothing held after it (pooler safe):
 *  1. the lanes with claimable work in turn order (a skip scan over jobs_lane_due_idx: one
 *     descent per lane, however many jobs a lane holds; lanes with expired leases added), and
 *     one lane's row in job_lanes locked FOR UPDATE SKIP LOCKED, so claimers at the same moment
 *     take different lanes. A lane without a row yet (never served) gets one, which also
 *     locks it, and goes first. Only if every candidate is locked does it wait for the first;
 *  2. under that lock, in a new snapshot, the caps counted again and the lane's oldest due job
 *     claimed FOR UPDATE SKIP LOCKED, and the lane marked served. Every claim of a lane holds
 *     the lane's lock, so its running jobs are counted exactly across workers and instances.
 */

/** A hospital's running jobs at once when neither the worker nor job_lanes says otherwise. */
export const DEFAULT_PER_HOSPITAL_RUNNING = 2

export interface ClaimOptions {
  /** Running jobs at once per hospital, across all workers (job_lanes.max_running overrides). */
  perHospitalRunning?: number
}

/** Candidate lanes tried in one claim when a locked lane turns out to have nothing for us. */
const LANE_TRIES = 3
/** Waiting for a lane another claimer holds (for one statement's length, normally). */
const LANE_LOCK_TIMEOUT_MS = 5_000

async function rows<T>(tx: Tx, query: SQL): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows
}

function textArray(values: string[]): SQL {
  return sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`
}

/** True when lane `lane` has fewer live running jobs than its cap. */
function underCap(lane: SQL, maxRunning: SQL, cap: number): SQL {
  return sql`(select count(*) from jobs r where r.lane = ${lane} and r.status = 'running'
                and r.locked_until >= now()) < coalesce(${maxRunning}, ${cap}::int)`
}

/**
 * 1. The lanes with claimable work of `names` under their caps, least recently served first
 * (`lanes`), and one of them locked: a new lane's row just added (`added`), else a free one.
 */
export function pickLaneQuery(names: string[], cap: number): SQL {
  const limits = nameLimits(names)
  return sql`with recursive queued(lane) as (
          (select lane from jobs where status in ('queued', 'failed') order by lane limit 1)
          union all
          select (select j.lane from jobs j where j.status in ('queued', 'failed') and j.lane > q.lane
                  order by j.lane limit 1)
          from queued q where q.lane is not null
        ),
        lanes(lane) as (
          select lane from queued where lane is not null
          union
          select lane from jobs where status = 'running' and locked_until < now()
        ),
        ${limits.cte}
        names(name) as (select unnest(${textArray(names)})),
        cands as (
          select l.lane, s.last_claimed_at, s.lane is null as missing
          from lanes l left join job_lanes s on s.lane = l.lane
          where ${underCap(sql`l.lane`, sql`s.max_running`, cap)}
            and exists (
              select 1 from names n
              -- min() over the index's leading columns: one descent each (an EXISTS here was
              -- planned as a sequential scan of the whole table).
              where ((select min(d.run_at) from jobs d where d.lane = l.lane and d.name = n.name
                        and d.status in ('queued', 'failed')) <= now()
                     or (select min(e.locked_until) from jobs e where e.lane = l.lane
                           and e.name = n.name and e.status = 'running') < now())
                and ${limits.allows(sql`l.lane`, sql`n.name`)})
        ),
        added as (
          insert into job_lanes (lane)
          select lane from cands where missing order by lane
          on conflict do nothing
          returning lane
        ),
        free as (
          select s.lane from job_lanes s
          where s.lane in (select lane from cands) and not exists (select 1 from added)
          order by s.last_claimed_at nulls first, s.lane
          limit 1
          for update skip locked
        )
        select (select array_agg(lane::text order by last_claimed_at nulls first, lane) from cands)
                 as lanes,
               (select min(lane::text) from added) as added,
               (select lane::text from free) as free`
}

/** 1b. A lane of `lanes` locked for this transaction: a free one, or (when told) the first. */
async function lockLane(tx: Tx, lanes: string[], wait: boolean): Promise<string | null> {
  const list = sql.join(
    lanes.map((l) => sql`${l}::uuid`),
    sql`, `,
  )
  const [free] = await rows<{ lane: string }>(
    tx,
    sql`select lane::text from job_lanes where lane in (${list})
        order by last_claimed_at nulls first, lane limit 1 for update skip locked`,
  )
  if (free || !wait) return free?.lane ?? null
  await tx.execute(sql`select set_config('lock_timeout', ${String(LANE_LOCK_TIMEOUT_MS)}, true)`)
  const [first] = await rows<{ lane: string }>(
    tx,
    sql`select lane::text from job_lanes where lane = ${lanes[0]}::uuid for update`,
  )
  return first?.lane ?? null
}

interface ClaimedRow {
  id: string
  name: string
  hospital_id: string | null
  payload: unknown
  attempts: number
  max_attempts: number
  run_at: Date | string
  checkpoint: unknown
}

/** 2. Under the lane's lock: the caps again, then the lane's oldest claimable job. */
export function claimInLaneQuery(
  lane: string,
  names: string[],
  cap: number,
  workerId: string,
  leaseMs: number,
): SQL {
  const l = sql`${lane}::uuid`
  const limits = nameLimits(names)
  return sql`with ${limits.cte}
        allowed(name) as (
          select n.name from unnest(${textArray(names)}) as n(name)
          where ${limits.allows(l, sql`n.name`)}
        ),
        open(ok) as (
          select ${underCap(l, sql`(select max_running from job_lanes where lane = ${l})`, cap)}
        ),
        pick as (
          select c.id from allowed a
          cross join lateral (
            (select d.id, d.run_at from jobs d
             where d.lane = ${l} and d.name = a.name and d.status in ('queued', 'failed')
               and d.run_at <= now()
             order by d.run_at, d.id limit 1)
            union all
            (select e.id, e.run_at from jobs e
             where e.lane = ${l} and e.name = a.name and e.status = 'running'
               and e.locked_until < now()
             order by e.run_at, e.id limit 1)
          ) c
          where (select ok from open)
          order by c.run_at, c.id
          limit 1
        ),
        next as (
          select j.id from jobs j
          where j.id = (select id from pick)
            and ((j.status in ('queued', 'failed') and j.run_at <= now())
                 or (j.status = 'running' and j.locked_until < now()))
          for update skip locked
        ),
        claimed as (
          update jobs j set status = 'running', attempts = j.attempts + 1, locked_by = ${workerId},
                 locked_until = now() + ${ms(leaseMs)}, started_at = now(), updated_at = now()
          from next where j.id = next.id
          returning j.id, j.name, j.hospital_id, j.payload, j.attempts, j.max_attempts, j.run_at,
                    j.checkpoint
        ),
        served as (
          update job_lanes set last_claimed_at = now()
          where lane = ${l} and exists (select 1 from claimed)
          returning lane
        )
        select * from claimed`
}

/**
 * Claims the next job among `names` for this worker, hospitals in turn, or none (nothing due,
 * or every lane with work at its cap). A job whose lease ran out (its worker died) is
 * claimable again in its lane's turn.
 */
export async function claimNext(
  db: AppDb,
  workerId: string,
  names: string[],
  leaseMs: number,
  options: ClaimOptions = {},
): Promise<ClaimedJob | null> {
  if (!names.length) return null
  const cap = options.perHospitalRunning ?? DEFAULT_PER_HOSPITAL_RUNNING
  if (!(Number.isInteger(cap) && cap >= 1)) throw new Error('perHospitalRunning must be >= 1')
  const row = await withPlatform(db, async (tx) => {
    const [pick] = await rows<{
      lanes: string[] | null
      added: string | null
      free: string | null
    }>(tx, pickLaneQuery(names, cap))
    let left = pick?.lanes ?? []
    if (!left.length) return undefined
    // Wait for a lane only while holding none (no lock order between lanes, so no deadlock).
    let lane = pick?.added ?? pick?.free ?? (await lockLane(tx, left, true))
    for (let i = 0; lane && i < LANE_TRIES; i++) {
      const [claimed] = await rows<ClaimedRow>(
        tx,
        claimInLaneQuery(lane, names, cap, workerId, leaseMs),
      )
      if (claimed) return claimed
      // Taken meanwhile, or at a cap now: the next lane in turn, if one is free.
      left = left.filter((l) => l !== lane)
      lane = left.length ? await lockLane(tx, left, false) : null
    }
    return undefined
  })
  if (!row) return null
  return {
    id: row.id,
    name: row.name,
    hospitalId: row.hospital_id,
    payload: row.payload,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    runAt: new Date(row.run_at),
    checkpoint: row.checkpoint ?? null,
  }
}
