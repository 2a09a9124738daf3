-- Issue 24, hand-written (docs/decisions/020-fair-jobs.md). Hospitals take turns at the queue:
-- each hospital is a "lane" (platform jobs, hospital_id null, are one more lane, the nil UUID),
-- the worker claims from the lane served least recently, never past its cap of running jobs,
-- and per job name optionally at most N running or N started a minute per lane.
--
-- The lane as a stored column so that plain btree indexes (and the skip scan that lists the
-- lanes with queued work) serve it; adding it rewrites jobs once, which finished jobs being
-- pruned after 7/30 days keeps small.
ALTER TABLE "jobs" ADD COLUMN "lane" uuid GENERATED ALWAYS AS (coalesce(hospital_id, '00000000-0000-0000-0000-000000000000'::uuid)) STORED;--> statement-breakpoint
-- When the current attempt was claimed: per-minute rates count the starts of the last minute.
ALTER TABLE "jobs" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
-- A handler's own progress state, written by ctx.checkpoint in its fenced tenant transaction.
ALTER TABLE "jobs" ADD COLUMN "checkpoint" jsonb;--> statement-breakpoint
-- The FIFO index across hospitals is replaced by per-lane ones (nothing claims in global order).
DROP INDEX "jobs_due_idx";--> statement-breakpoint
-- Waiting jobs by lane, then name, then due time: the lane list (skip scan on the first column),
-- "has lane L a due job of name N" and "the oldest due job of L and N" are each one descent,
-- however many jobs one hospital has queued.
CREATE INDEX "jobs_lane_due_idx" ON "jobs" USING btree ("lane","name","run_at","id") WHERE status in ('queued', 'failed');--> statement-breakpoint
-- Running jobs by lane and name: the caps count these (a handful per lane).
CREATE INDEX "jobs_lane_running_idx" ON "jobs" USING btree ("lane","name","locked_until") WHERE status = 'running';--> statement-breakpoint
-- Starts by lane and name: per-minute rates count the last minute's.
CREATE INDEX "jobs_lane_started_idx" ON "jobs" USING btree ("lane","name","started_at") WHERE started_at is not null;--> statement-breakpoint
-- One row per lane, written by workers only: when it was last served (the rotation's order; its
-- row lock serialises the claims of one lane, so caps are counted exactly across instances) and
-- an optional cap of running jobs for that hospital (null: the worker's default).
CREATE TABLE "job_lanes" (
	"lane" uuid PRIMARY KEY NOT NULL,
	"last_claimed_at" timestamp with time zone,
	"max_running" integer,
	CONSTRAINT "job_lanes_max_running_check" CHECK (max_running is null or max_running >= 0)
);--> statement-breakpoint
CREATE INDEX "job_lanes_claimed_idx" ON "job_lanes" USING btree ("last_claimed_at" NULLS FIRST,"lane");--> statement-breakpoint
-- A platform table like jobs: only the worker (app_platform) touches it; requests never do.
GRANT SELECT, INSERT, UPDATE, DELETE ON job_lanes TO app_platform;--> statement-breakpoint
ALTER TABLE job_lanes ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE job_lanes FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY platform_all ON job_lanes TO app_platform USING (true) WITH CHECK (true);
