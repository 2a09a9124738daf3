ALTER TABLE "patients" ADD COLUMN "name_search" text GENERATED ALWAYS AS (lower(regexp_replace(btrim(name), '\s+', ' ', 'g'))) STORED;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "name_search_2" text GENERATED ALWAYS AS (substring(lower(regexp_replace(btrim(name), '\s+', ' ', 'g')) from '^\S+ (.*)$')) STORED;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "name_search_3" text GENERATED ALWAYS AS (substring(lower(regexp_replace(btrim(name), '\s+', ' ', 'g')) from '^\S+ \S+ (.*)$')) STORED;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "name_search_4" text GENERATED ALWAYS AS (substring(lower(regexp_replace(btrim(name), '\s+', ' ', 'g')) from '^\S+ \S+ \S+ (.*)$')) STORED;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "phone_digits" text GENERATED ALWAYS AS (regexp_replace(phone, '\D', '', 'g')) STORED;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "number_digits" text GENERATED ALWAYS AS (substring(patient_number from '(\d+)$')) STORED;--> statement-breakpoint
CREATE INDEX "patients_hospital_name_search_prefix_idx" ON "patients" USING btree ("hospital_id","name_search" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "patients_hospital_name_search_2_prefix_idx" ON "patients" USING btree ("hospital_id","name_search_2" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "patients_hospital_name_search_3_prefix_idx" ON "patients" USING btree ("hospital_id","name_search_3" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "patients_hospital_name_search_4_prefix_idx" ON "patients" USING btree ("hospital_id","name_search_4" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "patients_hospital_email_prefix_idx" ON "patients" USING btree ("hospital_id","email" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "patients_hospital_patient_number_prefix_idx" ON "patients" USING btree ("hospital_id","patient_number" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "patients_hospital_number_digits_prefix_idx" ON "patients" USING btree ("hospital_id","number_digits" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "patients_hospital_phone_digits_prefix_idx" ON "patients" USING btree ("hospital_id","phone_digits" text_pattern_ops);--> statement-breakpoint
-- Hand-written from here (docs/decisions/011).
-- Search is by prefix now: the trigram indexes of 0001 and 0005 serve nothing and cost every
-- write. (pg_trgm itself stays: dropping an extension may need rights a managed database
-- does not give.)
DROP INDEX IF EXISTS patients_name_trgm_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS patients_email_trgm_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS patients_phone_trgm_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS patients_patient_number_trgm_idx;
--> statement-breakpoint
-- Tenant policies read the setting once per statement: `(select ...)` is an InitPlan, where
-- the bare expression was evaluated again for every row the policy filtered. ALTER POLICY
-- needs only ownership of the table, which migrations have.
ALTER POLICY tenant_isolation ON patients
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
ALTER POLICY tenant_isolation ON audit_events
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
ALTER POLICY tenant_isolation ON patient_number_counters
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
-- Statistics for the new columns now, so the planner can tell a common prefix (walk the list
-- in order and stop after a page) from a rare one (fetch its few rows by the prefix index)
-- before autovacuum gets round to it.
ANALYZE patients;
