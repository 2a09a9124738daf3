-- Hand-written (issue 41, voice calls; slice 2: the calls data layer). Three tenant tables under
-- forced RLS, keyed by hospital first:
--   calls          one row per call (click-to-call now, incoming calls later): its provider's id,
--                  status (src/server/integrations/voice/voice-provider.ts CALL_STATUSES, moved
--                  forward only by the service), times, outcome and the staff member's disposition.
--                  A "call back at" disposition keeps its time here (call_back_at): the lead's
--                  follow-ups are computed, not stored (schema/messaging.ts reminders).
--   voice_settings the hospital's voice provider (sandbox without one), its encrypted secrets
--                  (encryptSecret, context `voice:<hospital id>:<field>`), number, region,
--                  calling hours (09:00-21:00 in the hospital's zone), recording (off) and the
--                  unguessable token of its provider callback URLs.
--   staff_phones   the phone each staff member answers click-to-call on, verified by a test call.
--                  users is a platform table that app_user cannot read, so it lives here.
CREATE TABLE calls (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  lead_id uuid,
  patient_id uuid,
  user_id text NOT NULL,
  direction text NOT NULL DEFAULT 'outbound',
  provider text NOT NULL,
  provider_call_id text,
  customer_phone text NOT NULL,
  status text NOT NULL DEFAULT 'queued',
  failure_reason text,
  started_at timestamptz NOT NULL DEFAULT now(),
  answered_at timestamptz,
  ended_at timestamptz,
  duration_seconds integer,
  outcome text,
  disposition text,
  disposition_note text,
  call_back_at timestamptz,
  recording_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (hospital_id, id),
  FOREIGN KEY (hospital_id, lead_id) REFERENCES leads (hospital_id, id) ON DELETE cascade,
  FOREIGN KEY (hospital_id, patient_id) REFERENCES patients (hospital_id, id) ON DELETE cascade,
  CONSTRAINT calls_direction_check CHECK (direction in ('outbound', 'inbound')),
  CONSTRAINT calls_provider_check CHECK (provider in ('sandbox', 'exotel', 'twilio')),
  CONSTRAINT calls_status_check CHECK (status in ('queued', 'ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'failed', 'canceled')),
  CONSTRAINT calls_outcome_check CHECK (outcome in ('answered', 'no-answer', 'busy', 'failed', 'canceled')),
  CONSTRAINT calls_disposition_check CHECK (disposition in ('interested', 'call_back', 'not_reachable', 'wrong_number', 'booked', 'not_interested')),
  CONSTRAINT calls_call_back_check CHECK ((disposition IS NOT DISTINCT FROM 'call_back') = (call_back_at IS NOT NULL)),
  -- '' once the patient is erased (data-rights/patient-erase.service.ts).
  CONSTRAINT calls_customer_phone_check CHECK (customer_phone = '' OR customer_phone ~ '^\+[1-9][0-9]{6,14}$'),
  CONSTRAINT calls_duration_check CHECK (duration_seconds >= 0),
  CONSTRAINT calls_texts_check CHECK (length(failure_reason) <= 500 AND length(disposition_note) <= 2000 AND length(provider_call_id) <= 200 AND length(recording_key) <= 500)
);
--> statement-breakpoint
CREATE UNIQUE INDEX calls_hospital_provider_call_idx ON calls (hospital_id, provider_call_id) WHERE provider_call_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX calls_hospital_lead_idx ON calls (hospital_id, lead_id, created_at DESC);
--> statement-breakpoint
CREATE INDEX calls_hospital_patient_idx ON calls (hospital_id, patient_id, created_at DESC);
--> statement-breakpoint
CREATE INDEX calls_hospital_created_idx ON calls (hospital_id, created_at DESC);
--> statement-breakpoint
-- One live call per staff member: a second start while one rings or talks is refused (409).
CREATE UNIQUE INDEX calls_hospital_user_live_idx ON calls (hospital_id, user_id) WHERE status in ('queued', 'ringing', 'in-progress');
--> statement-breakpoint
-- Call-back dispositions due (the dashboard's follow-ups, a later slice).
CREATE INDEX calls_hospital_call_back_idx ON calls (hospital_id, call_back_at) WHERE call_back_at IS NOT NULL;
--> statement-breakpoint
CREATE TABLE voice_settings (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  provider text NOT NULL DEFAULT 'sandbox',
  settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  secrets jsonb NOT NULL DEFAULT '{}'::jsonb,
  caller_id text,
  region text,
  calling_hours_start text NOT NULL DEFAULT '09:00',
  calling_hours_end text NOT NULL DEFAULT '21:00',
  recording_enabled boolean NOT NULL DEFAULT false,
  callback_token text NOT NULL DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (hospital_id),
  CONSTRAINT voice_settings_provider_check CHECK (provider in ('sandbox', 'exotel', 'twilio')),
  CONSTRAINT voice_settings_region_check CHECK (region in ('mumbai', 'singapore')),
  CONSTRAINT voice_settings_caller_id_check CHECK (caller_id ~ '^\+?[0-9]{6,15}$'),
  CONSTRAINT voice_settings_hours_check CHECK (calling_hours_start ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' AND calling_hours_end ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  CONSTRAINT voice_settings_token_check CHECK (length(callback_token) >= 32)
);
--> statement-breakpoint
CREATE TABLE staff_phones (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  user_id text NOT NULL,
  phone text NOT NULL,
  phone_verified_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (hospital_id, user_id),
  CONSTRAINT staff_phones_phone_check CHECK (phone ~ '^\+[1-9][0-9]{6,14}$')
);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON calls, voice_settings, staff_phones TO app_user;
--> statement-breakpoint
ALTER TABLE calls ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE calls FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON calls
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
ALTER TABLE voice_settings ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE voice_settings FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON voice_settings
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
ALTER TABLE staff_phones ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE staff_phones FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON staff_phones
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
