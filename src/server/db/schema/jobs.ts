import { sql } from 'drizzle-orm'
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { hospitals } from './hospitals'

/**
 * queued: waits for run_at · running: claimed, leased until locked_until · failed: the last
 * attempt failed, the next waits for run_at (backoff) · done · dead: out of attempts, or a
 * failure that retrying cannot fix.
 */
export const jobStatuses = ['queued', 'running', 'failed', 'done', 'dead'] as const
export type JobStatus = (typeof jobStatuses)[number]

/** The lane of platform jobs (hospital_id null): one more "hospital" in the rotation. */
export const PLATFORM_LANE = '00000000-0000-0000-0000-000000000000'

export interface JobProgress {
  done: number
  total: number
}

/**
 * Everything that runs later or on a schedule (docs/decisions/014-jobs.md). A platform table:
 * the worker claims across hospitals, and platform jobs (backups, retention) have none.
 * Hospitals may still only enqueue and read their own jobs: row-level security lets app_user
 * INSERT and SELECT rows of the transaction's hospital and nothing else (drizzle/0010_jobs.sql).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    hospitalId: uuid('hospital_id').references(() => hospitals.id, { onDelete: 'cascade' }),
    payload: jsonb('payload').$type<unknown>().notNull().default({}),
    status: text('status', { enum: jobStatuses }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    progress: jsonb('progress').$type<JobProgress>(),
    result: jsonb('result').$type<unknown>(),
    /**
     * The last failure as an error class and code (`DrizzleQueryError (57014)`), or the message
     * of an error written for users (PublicJobError, PermanentJobError, AppError): never bound
     * values or row contents (http/logging.ts errorText).
     */
    lastError: text('last_error'),
    /** The handler's own progress state, stored by ctx.checkpoint in its fenced transaction. */
    checkpoint: jsonb('checkpoint').$type<unknown>(),
    /** `<hospital id or 'platform'>:<caller's key>`: one job per key, ever (until pruned). */
    dedupeKey: text('dedupe_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** When the current attempt was claimed (per-minute rates count these). */
    startedAt: timestamp('started_at', { withTimezone: true }),
    /** The hospital, or the nil UUID for platform jobs: hospitals take turns by lane. */
    lane: uuid('lane').generatedAlwaysAs(
      sql`coalesce(hospital_id, '00000000-0000-0000-0000-000000000000'::uuid)`,
    ),
  },
  (t) => [
    uniqueIndex('jobs_dedupe_key_idx').on(t.dedupeKey),
    // What the worker claims, lane by lane (drizzle/0013_jobs_fairness.sql): due jobs, and
    // running ones whose lease ran out; the caps count running jobs and the last minute's starts.
    index('jobs_lane_due_idx')
      .on(t.lane, t.name, t.runAt, t.id)
      .where(sql`status in ('queued', 'failed')`),
    index('jobs_lane_running_idx')
      .on(t.lane, t.name, t.lockedUntil)
      .where(sql`status = 'running'`),
    index('jobs_lane_started_idx')
      .on(t.lane, t.name, t.startedAt)
      .where(sql`started_at is not null`),
    index('jobs_leased_idx')
      .on(t.lockedUntil)
      .where(sql`status = 'running'`),
    index('jobs_hospital_idx').on(t.hospitalId, t.createdAt),
    index('jobs_finished_idx')
      .on(t.finishedAt)
      .where(sql`status in ('done', 'dead')`),
    check('jobs_status_check', sql`status in ('queued', 'running', 'failed', 'done', 'dead')`),
    check('jobs_attempts_check', sql`attempts >= 0 and max_attempts >= 1`),
  ],
)

/**
 * One row per lane (a hospital, or PLATFORM_LANE), written by workers only: when the lane was
 * last served, which orders the rotation, and an optional cap of its running jobs (null: the
 * worker's default). Its row lock serialises one lane's claims across instances, so caps are
 * counted exactly. A platform table: app_platform only (drizzle/0013_jobs_fairness.sql).
 */
export const jobLanes = pgTable(
  'job_lanes',
  {
    lane: uuid('lane').primaryKey(),
    lastClaimedAt: timestamp('last_claimed_at', { withTimezone: true }),
    maxRunning: integer('max_running'),
  },
  (t) => [
    index('job_lanes_claimed_idx').on(t.lastClaimedAt.asc().nullsFirst(), t.lane),
    check('job_lanes_max_running_check', sql`max_running is null or max_running >= 0`),
  ],
)
