import { sql, type SQL } from 'drizzle-orm'
import { handlerOptions } from './registry'

// The per-hospital limits of job names (registerHandler's perHospitalRunning and
// perHospitalPerMinute) as SQL for claim.ts: counted in the database in the claim's own
// transaction, under the lane's lock, so they hold across workers and instances.

export interface NameLimits {
  /** `limits(name, max_running, per_minute) as (values ...),` or nothing when no name has one. */
  cte: SQL
  /** True unless job name `name` is at one of its per-hospital limits in lane `lane`. */
  allows: (lane: SQL, name: SQL) => SQL
}

/**
 * The names' per-hospital limits (registerHandler options). Without any, the statements carry
 * no limit clauses at all: planning them is most of a claim's cost on PGlite.
 */
export function nameLimits(names: string[]): NameLimits {
  const limited = names
    .map((name) => ({ name, ...handlerOptions(name) }))
    .filter((o) => o.perHospitalRunning !== undefined || o.perHospitalPerMinute !== undefined)
  if (!limited.length) return { cte: sql``, allows: () => sql`true` }
  const values = sql.join(
    limited.map(
      (o) =>
        sql`(${o.name}::text, ${o.perHospitalRunning ?? null}::int, ${o.perHospitalPerMinute ?? null}::int)`,
    ),
    sql`, `,
  )
  return {
    cte: sql`limits(name, max_running, per_minute) as (values ${values}),`,
    allows: (lane, name) => sql`not exists (
      select 1 from limits m where m.name = ${name} and (
        (m.max_running is not null and m.max_running <= (
          select count(*) from jobs r where r.lane = ${lane} and r.name = m.name
            and r.status = 'running' and r.locked_until >= now()))
        or (m.per_minute is not null and m.per_minute <= (
          select count(*) from jobs r where r.lane = ${lane} and r.name = m.name
            and r.started_at > now() - interval '1 minute'))))`,
  }
}
