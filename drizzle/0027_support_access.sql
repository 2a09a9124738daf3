-- Hand-written (issue 27): support access granted by the hospital, and read-only mode.
--  * support_access_grants: a hospital admin lets the platform's super admins in for a set
--    number of hours, with a reason; revocable. A platform table (like onboarding_tasks): the
--    services scope every query by the caller's hospital; app_user has no grant on it.
--  * support_sessions: the super admin session that entered a hospital under a grant. The server
--    checks the grant behind it on every request (docs/decisions/029-support-access.md).
--  * hospitals.status_changed_at: when subscription_status last changed (a trigger keeps it),
--    so "past due beyond the grace period" can be told (read-only mode).
CREATE TABLE support_access_grants (
  id uuid PRIMARY KEY NOT NULL DEFAULT gen_random_uuid(),
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  granted_by_user_id text NOT NULL,
  reason text NOT NULL,
  hours integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_by_user_id text,
  CONSTRAINT support_access_grants_hours_check CHECK (hours BETWEEN 1 AND 72),
  CONSTRAINT support_access_grants_reason_check CHECK (length(reason) BETWEEN 3 AND 500)
);
--> statement-breakpoint
CREATE INDEX support_access_grants_hospital_idx ON support_access_grants (hospital_id, created_at);
--> statement-breakpoint
CREATE TABLE support_sessions (
  session_id text PRIMARY KEY NOT NULL REFERENCES sessions (id) ON DELETE cascade,
  user_id text NOT NULL REFERENCES users (id) ON DELETE cascade,
  grant_id uuid NOT NULL REFERENCES support_access_grants (id) ON DELETE cascade,
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  entered_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX support_sessions_grant_idx ON support_sessions (grant_id);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON support_access_grants, support_sessions TO app_platform;
--> statement-breakpoint
ALTER TABLE hospitals ADD COLUMN status_changed_at timestamptz NOT NULL DEFAULT now();
--> statement-breakpoint
CREATE FUNCTION arogya_hospital_status_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.subscription_status IS DISTINCT FROM OLD.subscription_status THEN
    NEW.status_changed_at := now();
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER hospitals_status_changed BEFORE UPDATE ON hospitals
  FOR EACH ROW EXECUTE FUNCTION arogya_hospital_status_changed();
