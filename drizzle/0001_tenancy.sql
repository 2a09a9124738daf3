-- Tenant isolation, enforced by the database (ENGINEERING.md "Data and tenants").
-- Requests reach tenant rows only as app_user, inside withTenant(), which sets
-- app.hospital_id transaction-locally. app_user is no superuser, cannot bypass RLS
-- and owns nothing, so FORCE'd policies always apply to it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'app_user') THEN
    CREATE ROLE app_user NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('GRANT app_user TO %I', current_user);
EXCEPTION WHEN OTHERS THEN NULL;
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO app_user;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON patients, audit_events TO app_user;
--> statement-breakpoint
ALTER TABLE patients ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE patients FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON patients
  USING (hospital_id = nullif(current_setting('app.hospital_id', true), '')::uuid)
  WITH CHECK (hospital_id = nullif(current_setting('app.hospital_id', true), '')::uuid);
--> statement-breakpoint
ALTER TABLE audit_events ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE audit_events FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON audit_events
  USING (hospital_id = nullif(current_setting('app.hospital_id', true), '')::uuid)
  WITH CHECK (hospital_id = nullif(current_setting('app.hospital_id', true), '')::uuid);
--> statement-breakpoint
-- Patient search: name or email (ILIKE) or phone (substring) served by trigram indexes.
CREATE INDEX patients_name_trgm_idx ON patients USING gin (name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX patients_email_trgm_idx ON patients USING gin (email gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX patients_phone_trgm_idx ON patients USING gin (phone gin_trgm_ops);
