-- Issue 25, docs/decisions/025-messaging.md: messaging. Hand-written (mirrors
-- src/server/db/schema/messaging.ts and the communications columns in schema/leads.ts;
-- tests/integration/constraints.api.test.ts keeps the CHECK lists equal).
--
-- communications gains a patient (a message to a patient who was never a lead), the queued and
-- sending states, and the provider's side of a message. Existing rows all have a lead and one
-- of the old statuses, so the widened constraints hold for them.
ALTER TABLE communications ALTER COLUMN lead_id DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE communications
  ADD COLUMN patient_id uuid,
  ADD COLUMN contact_address text,
  ADD COLUMN provider text,
  ADD COLUMN provider_message_id text,
  ADD COLUMN failure_code text,
  ADD COLUMN failure_reason text,
  ADD COLUMN batch_id uuid,
  ADD COLUMN template_id uuid,
  ADD COLUMN sandbox boolean DEFAULT false NOT NULL,
  ADD COLUMN send_after timestamp with time zone,
  ADD COLUMN status_changed_at timestamp with time zone;
--> statement-breakpoint
ALTER TABLE communications ADD CONSTRAINT communications_hospital_id_patient_id_patients_hospital_id_id_fk
  FOREIGN KEY (hospital_id, patient_id) REFERENCES patients (hospital_id, id) ON DELETE cascade;
--> statement-breakpoint
ALTER TABLE communications DROP CONSTRAINT communications_status_check;
--> statement-breakpoint
ALTER TABLE communications ADD CONSTRAINT communications_status_check
  CHECK (status in ('queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'received', 'logged'));
--> statement-breakpoint
ALTER TABLE communications ADD CONSTRAINT communications_subject_check
  CHECK (lead_id is not null or patient_id is not null);
--> statement-breakpoint
ALTER TABLE communications ADD CONSTRAINT communications_provider_check
  CHECK (provider in ('sandbox', 'meta', 'twilio', 'msg91', 'smtp', 'sendgrid'));
--> statement-breakpoint
CREATE INDEX communications_hospital_patient_idx ON communications
  (hospital_id, patient_id, created_at DESC) WHERE patient_id is not null;
--> statement-breakpoint
CREATE INDEX communications_hospital_inbound_idx ON communications
  (hospital_id, type, contact_address, created_at DESC)
  WHERE direction = 'inbound' and contact_address is not null;
--> statement-breakpoint
CREATE INDEX communications_hospital_batch_idx ON communications (hospital_id, batch_id)
  WHERE batch_id is not null;
--> statement-breakpoint
CREATE UNIQUE INDEX communications_provider_message_idx ON communications
  (hospital_id, provider, provider_message_id) WHERE provider_message_id is not null;
--> statement-breakpoint
CREATE TABLE messaging_connections (
  hospital_id uuid PRIMARY KEY NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  whatsapp_provider text DEFAULT 'sandbox' NOT NULL
    CONSTRAINT messaging_connections_whatsapp_check CHECK (whatsapp_provider in ('sandbox', 'meta', 'twilio')),
  sms_provider text DEFAULT 'sandbox' NOT NULL
    CONSTRAINT messaging_connections_sms_check CHECK (sms_provider in ('sandbox', 'twilio', 'msg91')),
  email_provider text DEFAULT 'sandbox' NOT NULL
    CONSTRAINT messaging_connections_email_check CHECK (email_provider in ('sandbox', 'smtp', 'sendgrid')),
  settings jsonb DEFAULT '{}'::jsonb NOT NULL,
  secrets jsonb DEFAULT '{}'::jsonb NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE messaging_routes (
  provider text NOT NULL,
  external_id text NOT NULL,
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY (provider, external_id)
);
--> statement-breakpoint
CREATE INDEX messaging_routes_hospital_idx ON messaging_routes (hospital_id);
--> statement-breakpoint
CREATE TABLE message_templates (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  key text,
  name text NOT NULL,
  channel text NOT NULL CONSTRAINT message_templates_channel_check CHECK (channel in ('whatsapp', 'sms', 'email')),
  subject text,
  body text NOT NULL,
  category text NOT NULL CONSTRAINT message_templates_category_check
    CHECK (category in ('utility', 'marketing', 'service_implicit', 'service_explicit', 'promotional', 'transactional')),
  provider_template_name text,
  content_sid text,
  language text DEFAULT 'en' NOT NULL,
  variables jsonb DEFAULT '[]'::jsonb NOT NULL,
  dlt_template_id text,
  approval_status text DEFAULT 'not_required' NOT NULL CONSTRAINT message_templates_approval_check
    CHECK (approval_status in ('not_required', 'pending', 'approved', 'rejected', 'paused')),
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY (hospital_id, id)
);
--> statement-breakpoint
CREATE UNIQUE INDEX message_templates_hospital_channel_name_idx ON message_templates (hospital_id, channel, name);
--> statement-breakpoint
CREATE UNIQUE INDEX message_templates_hospital_key_idx ON message_templates (hospital_id, channel, key)
  WHERE key is not null;
--> statement-breakpoint
CREATE TABLE message_batches (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  channel text NOT NULL CONSTRAINT message_batches_channel_check CHECK (channel in ('whatsapp', 'sms', 'email')),
  template_id uuid,
  subject text,
  content text NOT NULL,
  requested integer NOT NULL,
  queued integer NOT NULL,
  skipped jsonb DEFAULT '{}'::jsonb NOT NULL,
  created_by_user_id text,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY (hospital_id, id)
);
--> statement-breakpoint
CREATE INDEX message_batches_hospital_created_idx ON message_batches (hospital_id, created_at DESC);
--> statement-breakpoint
CREATE TABLE consent_records (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  channel text NOT NULL CONSTRAINT consent_records_channel_check CHECK (channel in ('whatsapp', 'sms', 'email')),
  contact_address text NOT NULL,
  purpose text DEFAULT 'messaging' NOT NULL,
  action text NOT NULL CONSTRAINT consent_records_action_check CHECK (action in ('opt_in', 'opt_out')),
  method text NOT NULL CONSTRAINT consent_records_method_check
    CHECK (method in ('keyword', 'button', 'staff', 'provider', 'form')),
  notice_version text,
  recorded_by_user_id text,
  communication_id uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY (hospital_id, id)
);
--> statement-breakpoint
CREATE INDEX consent_records_contact_idx ON consent_records (hospital_id, channel, contact_address, created_at DESC);
--> statement-breakpoint
CREATE TABLE notification_settings (
  hospital_id uuid PRIMARY KEY NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  email_enabled boolean DEFAULT true NOT NULL,
  sms_enabled boolean DEFAULT false NOT NULL,
  push_enabled boolean DEFAULT true NOT NULL,
  appointment_reminders boolean DEFAULT true NOT NULL,
  quiet_hours_start text DEFAULT '10:00' NOT NULL,
  quiet_hours_end text DEFAULT '21:00' NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT notification_settings_quiet_check CHECK (
    quiet_hours_start ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and quiet_hours_end ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$')
);
--> statement-breakpoint
CREATE TABLE reminders (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  type text NOT NULL CONSTRAINT reminders_type_check CHECK (type in ('follow_up', 'appointment', 'payment', 'custom')),
  message text NOT NULL,
  status text DEFAULT 'pending' NOT NULL CONSTRAINT reminders_status_check CHECK (status in ('pending', 'sent', 'failed', 'cancelled')),
  channel text NOT NULL CONSTRAINT reminders_channel_check CHECK (channel in ('whatsapp', 'sms', 'email')),
  lead_id uuid,
  patient_id uuid,
  due_at timestamp with time zone DEFAULT now() NOT NULL,
  communication_id uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY (hospital_id, id),
  FOREIGN KEY (hospital_id, lead_id) REFERENCES leads (hospital_id, id) ON DELETE cascade,
  FOREIGN KEY (hospital_id, patient_id) REFERENCES patients (hospital_id, id) ON DELETE cascade,
  CONSTRAINT reminders_subject_check CHECK (lead_id is not null or patient_id is not null)
);
--> statement-breakpoint
CREATE INDEX reminders_hospital_status_due_idx ON reminders (hospital_id, status, due_at);
--> statement-breakpoint
-- Tenant tables: app_user only, RLS forced, the tenant read once per statement (as 0009).
DO $rls$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['messaging_connections', 'message_templates', 'message_batches',
                           'consent_records', 'notification_settings', 'reminders'] LOOP
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO app_user', t);
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format($p$CREATE POLICY tenant_isolation ON %I
      USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
      WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))$p$, t);
  END LOOP;
END
$rls$;
--> statement-breakpoint
-- messaging_routes is a platform table like meta_pages (0011): the public WhatsApp webhook
-- (app_platform, no tenant yet) routes a phone_number_id to its hospital; a hospital's request
-- (app_user) sees and writes its own rows only.
GRANT SELECT ON messaging_routes TO app_platform;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON messaging_routes TO app_user;
--> statement-breakpoint
ALTER TABLE messaging_routes ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE messaging_routes FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY platform_read ON messaging_routes FOR SELECT TO app_platform USING (true);
--> statement-breakpoint
CREATE POLICY tenant_own ON messaging_routes TO app_user
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
