CREATE TABLE "communications" (
	"hospital_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"lead_id" uuid NOT NULL,
	"type" text NOT NULL,
	"direction" text NOT NULL,
	"content" text NOT NULL,
	"status" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by_user_id" text,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "communications_hospital_id_id_pk" PRIMARY KEY("hospital_id","id")
);
--> statement-breakpoint
CREATE TABLE "lead_settings" (
	"hospital_id" uuid PRIMARY KEY NOT NULL,
	"follow_up_days" integer DEFAULT 3 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"hospital_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"phone" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"source" text NOT NULL,
	"priority" text DEFAULT 'medium' NOT NULL,
	"service_interest" text,
	"campaign" text,
	"notes" text,
	"meta_lead_id" text,
	"meta_form_id" text,
	"assigned_to_user_id" text,
	"patient_id" uuid,
	"last_contact_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name_search" text GENERATED ALWAYS AS (lower(regexp_replace(btrim(name), '\s+', ' ', 'g'))) STORED,
	"phone_digits" text GENERATED ALWAYS AS (regexp_replace(phone, '\D', '', 'g')) STORED,
	CONSTRAINT "leads_hospital_id_id_pk" PRIMARY KEY("hospital_id","id")
);
--> statement-breakpoint
ALTER TABLE "communications" ADD CONSTRAINT "communications_hospital_id_lead_id_leads_hospital_id_id_fk" FOREIGN KEY ("hospital_id","lead_id") REFERENCES "public"."leads"("hospital_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_settings" ADD CONSTRAINT "lead_settings_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_hospital_id_patient_id_patients_hospital_id_id_fk" FOREIGN KEY ("hospital_id","patient_id") REFERENCES "public"."patients"("hospital_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "communications_hospital_lead_idx" ON "communications" USING btree ("hospital_id","lead_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "communications_hospital_unread_idx" ON "communications" USING btree ("hospital_id") WHERE direction = 'inbound' and read_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "leads_hospital_phone_idx" ON "leads" USING btree ("hospital_id","phone");--> statement-breakpoint
CREATE UNIQUE INDEX "leads_hospital_meta_lead_idx" ON "leads" USING btree ("hospital_id","meta_lead_id");--> statement-breakpoint
CREATE INDEX "leads_hospital_recent_idx" ON "leads" USING btree ("hospital_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "leads_hospital_status_recent_idx" ON "leads" USING btree ("hospital_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "leads_hospital_source_recent_idx" ON "leads" USING btree ("hospital_id","source","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "leads_hospital_assignee_idx" ON "leads" USING btree ("hospital_id","assigned_to_user_id");--> statement-breakpoint
CREATE INDEX "leads_hospital_name_search_prefix_idx" ON "leads" USING btree ("hospital_id","name_search" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "leads_hospital_email_prefix_idx" ON "leads" USING btree ("hospital_id","email" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "leads_hospital_phone_digits_prefix_idx" ON "leads" USING btree ("hospital_id","phone_digits" text_pattern_ops);--> statement-breakpoint
-- Hand-written from here. Tenant tables like patients (0001, 0007): app_user only, RLS forced,
-- the tenant read once per statement.
GRANT SELECT, INSERT, UPDATE, DELETE ON leads, communications TO app_user;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON lead_settings TO app_user;
--> statement-breakpoint
ALTER TABLE leads ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE leads FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON leads
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
ALTER TABLE communications ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE communications FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON communications
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
ALTER TABLE lead_settings ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE lead_settings FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON lead_settings
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
