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
    /** The last failure's message, cleaned of URLs' credentials and bearer tokens. */
    lastError: text('last_error'),
    /** `<hospital id or 'platform'>:<caller's key>`: one job per key, ever (until pruned). */
    dedupeKey: text('dedupe_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('jobs_dedupe_key_idx').on(t.dedupeKey),
    // What the worker claims: due jobs, and running ones whose lease ran out.
    index('jobs_due_idx')
      .on(t.runAt)
      .where(sql`status in ('queued', 'failed')`),
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
