CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"hospital_id" uuid,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"progress" jsonb,
	"result" jsonb,
	"last_error" text,
	"dedupe_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "jobs_status_check" CHECK (status in ('queued', 'running', 'failed', 'done', 'dead')),
	CONSTRAINT "jobs_attempts_check" CHECK (attempts >= 0 and max_attempts >= 1)
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_dedupe_key_idx" ON "jobs" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE status in ('queued', 'failed');--> statement-breakpoint
CREATE INDEX "jobs_leased_idx" ON "jobs" USING btree ("locked_until") WHERE status = 'running';--> statement-breakpoint
CREATE INDEX "jobs_hospital_idx" ON "jobs" USING btree ("hospital_id","created_at");--> statement-breakpoint
CREATE INDEX "jobs_finished_idx" ON "jobs" USING btree ("finished_at") WHERE status in ('done', 'dead');--> statement-breakpoint
-- Hand-written from here (docs/decisions/014). A platform table: the worker (app_platform)
-- claims, renews, finishes and prunes across hospitals. A hospital's request (app_user, in its
-- tenant transaction) may enqueue and read its own hospital's jobs only: the outbox insert
-- commits or rolls back with the rows that need it. Never a platform job (hospital_id null).
-- "when" in the journal is set after 0008's hand-set value so that databases at 0008/0009 apply it.
GRANT SELECT, INSERT, UPDATE, DELETE ON jobs TO app_platform;
--> statement-breakpoint
GRANT SELECT, INSERT ON jobs TO app_user;
--> statement-breakpoint
ALTER TABLE jobs ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE jobs FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY platform_all ON jobs TO app_platform USING (true) WITH CHECK (true);
--> statement-breakpoint
CREATE POLICY tenant_read ON jobs FOR SELECT TO app_user
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
CREATE POLICY tenant_enqueue ON jobs FOR INSERT TO app_user
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
-- Workers wake at once on a new job (LISTEN jobs: PGlite in-process, PostgreSQL on
-- DATABASE_DIRECT_URL); without a listener they poll every second. Sent at COMMIT only.
CREATE FUNCTION arogya_notify_jobs() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('arogya_jobs', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER jobs_notify AFTER INSERT ON jobs
  FOR EACH STATEMENT EXECUTE FUNCTION arogya_notify_jobs();
