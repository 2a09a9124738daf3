-- Hand-written (issue 29, Live Monitoring; docs/decisions/040-live-monitoring.md): what staff
-- did (activities, written in the same transaction as the action they record) and who is online
-- (user_presence, one row per member, moved by sign-in, sign-out, heartbeats and requests).
-- Daily summaries are computed from activities on read (no stored table). Tenant tables under
-- forced RLS keyed by hospital first.
CREATE TABLE activities (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  user_id text NOT NULL,
  activity_type text NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- One activity per fact that may be reported more than once (a message's sent and delivered
  -- callbacks, a call ended twice): 'message:<id>', 'call_end:<callId>'. NULL for the rest.
  dedupe_key text,
  PRIMARY KEY (hospital_id, id),
  CONSTRAINT activities_type_check CHECK (activity_type in ('call_start', 'call_end', 'email_sent', 'sms_sent', 'login', 'logout', 'patient_added', 'appointment_scheduled')),
  CONSTRAINT activities_data_check CHECK (jsonb_typeof(data) = 'object' AND pg_column_size(data) <= 4096)
);
--> statement-breakpoint
CREATE INDEX activities_hospital_occurred_idx ON activities (hospital_id, occurred_at DESC);
--> statement-breakpoint
CREATE INDEX activities_hospital_user_occurred_idx ON activities (hospital_id, user_id, occurred_at);
--> statement-breakpoint
CREATE UNIQUE INDEX activities_hospital_dedupe_idx ON activities (hospital_id, dedupe_key);
--> statement-breakpoint
CREATE TABLE user_presence (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  user_id text NOT NULL,
  is_online boolean NOT NULL DEFAULT false,
  last_activity timestamptz,
  login_time timestamptz,
  PRIMARY KEY (hospital_id, user_id)
);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON activities, user_presence TO app_user;
--> statement-breakpoint
ALTER TABLE activities ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE activities FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON activities
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
ALTER TABLE user_presence ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE user_presence FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON user_presence
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
