-- Issue 27, Settings: the hospital's own settings that the spec's tabs add beyond what already
-- lives on hospitals (name, time zone, GSTIN, UPI ID, invoice prefix, working hours, reminder
-- offsets and the grievance contact stay there, and lead management stays on lead_settings:
-- one record each). A tenant table under forced
-- RLS, one row per hospital; a hospital without a row has the defaults (spec section 9, "Settings
-- defaults"), and the first save inserts the row (GET/PUT /api/settings). It holds:
--  * General: the region (the currency is hospitals.currency);
--  * Security: require two-factor of every member, session timeout and its duration in hours;
--  * Data: automatic backups and backup retention in days.
CREATE TABLE hospital_settings (
  hospital_id uuid PRIMARY KEY NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  region text NOT NULL DEFAULT 'India',
  require_two_factor boolean NOT NULL DEFAULT false,
  session_timeout boolean NOT NULL DEFAULT true,
  session_hours integer NOT NULL DEFAULT 8,
  auto_backups boolean NOT NULL DEFAULT true,
  backup_retention_days integer NOT NULL DEFAULT 30,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text,
  CONSTRAINT hospital_settings_region_check CHECK (length(region) BETWEEN 1 AND 60),
  CONSTRAINT hospital_settings_session_hours_check CHECK (session_hours BETWEEN 1 AND 72),
  CONSTRAINT hospital_settings_backup_retention_days_check CHECK (backup_retention_days BETWEEN 1 AND 365)
);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON hospital_settings TO app_user;
--> statement-breakpoint
ALTER TABLE hospital_settings ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE hospital_settings FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON hospital_settings
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
-- General → lead management (spec: auto-assign off, priority scoring on, follow-up reminder days
-- 3, max contact attempts 5), on the leads issue's lead_settings row beside follow_up_days.
ALTER TABLE lead_settings ADD COLUMN auto_assign_leads boolean NOT NULL DEFAULT false;
--> statement-breakpoint
ALTER TABLE lead_settings ADD COLUMN priority_scoring boolean NOT NULL DEFAULT true;
--> statement-breakpoint
ALTER TABLE lead_settings ADD COLUMN max_contact_attempts integer NOT NULL DEFAULT 5;
--> statement-breakpoint
-- The receptionist who got the last auto-assigned lead (round-robin's cursor).
ALTER TABLE lead_settings ADD COLUMN last_assigned_user_id text;
--> statement-breakpoint
ALTER TABLE lead_settings ADD CONSTRAINT lead_settings_max_contact_attempts_check
  CHECK (max_contact_attempts BETWEEN 1 AND 20);
