CREATE TABLE "auth_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "email_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"purpose" text NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text,
	"html_body" text,
	"driver" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "security_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"event" text NOT NULL,
	"user_id" text,
	"email" text,
	"hospital_id" uuid,
	"impersonator_user_id" text,
	"ip" text,
	"details" jsonb
);
--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "impersonator_user_id" text;--> statement-breakpoint
CREATE INDEX "email_outbox_created_idx" ON "email_outbox" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "security_events_created_idx" ON "security_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "security_events_user_idx" ON "security_events" USING btree ("user_id","created_at");--> statement-breakpoint
-- Append-only audit trail: requests may read and add audit rows, never change or remove them.
REVOKE UPDATE, DELETE, TRUNCATE ON audit_events FROM app_user;
--> statement-breakpoint
-- app_platform: what platform queries (sign-in, sessions, hospitals, super admin) may touch.
-- In production the server logs in as a role that is neither superuser nor owner and holds
-- only app_platform and app_user (docs/decisions/001); migrations run as the owner
-- (DATABASE_MIGRATION_URL). Locally the connecting role is the owner and this is a no-op.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'app_platform') THEN
    CREATE ROLE app_platform NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('GRANT app_platform TO %I', current_user);
EXCEPTION WHEN OTHERS THEN NULL;
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO app_platform;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON hospitals, users, sessions, accounts, verifications,
  two_factors, demo_requests, auth_throttle, email_outbox TO app_platform;
--> statement-breakpoint
-- The security log is append-only too.
GRANT SELECT, INSERT ON security_events TO app_platform;
