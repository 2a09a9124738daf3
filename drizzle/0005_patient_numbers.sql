-- Patient numbers (UHID/MRN): 'SMH-000123', sequential per hospital. See docs/decisions/006.
CREATE TABLE "patient_number_counters" (
	"hospital_id" uuid PRIMARY KEY NOT NULL,
	"prefix" text NOT NULL,
	"next_value" integer NOT NULL
);
--> statement-breakpoint
DROP INDEX "patients_hospital_created_idx";--> statement-breakpoint
-- Added nullable, backfilled below, then made NOT NULL (drizzle-kit generated it NOT NULL at once).
ALTER TABLE "patients" ADD COLUMN "patient_number" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "date_of_birth_estimated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "patient_number_counters" ADD CONSTRAINT "patient_number_counters_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "patients_hospital_recent_idx" ON "patients" USING btree ("hospital_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "patients_hospital_phone_idx" ON "patients" USING btree ("hospital_id","phone");
--> statement-breakpoint
-- Hand-written from here.
-- The prefix rule of patientNumberPrefix() in src/shared/schemas/patients.ts, for the backfill
-- only (dropped at the end): initials of the words before the first comma, at most 4; the first
-- 3 letters of a one-word name; 'PT' when there is no word starting with A-Z.
CREATE FUNCTION patient_number_prefix(hospital_name text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  WITH words AS (
    SELECT w, ord
    FROM regexp_split_to_table(
      translate(split_part(hospital_name, ',', 1), '''' || chr(8217), ''),
      '[^A-Za-z0-9]+'
    ) WITH ORDINALITY AS t(w, ord)
    WHERE w ~ '^[A-Za-z]' AND lower(w) NOT IN ('of', 'and', 'the', 'for', 'at', 'in', 'by')
  )
  SELECT CASE (SELECT count(*) FROM words)
    WHEN 0 THEN 'PT'
    WHEN 1 THEN upper(left(regexp_replace((SELECT w FROM words), '[^A-Za-z]', '', 'g'), 3))
    ELSE upper((SELECT string_agg(left(w, 1), '' ORDER BY ord)
                FROM (SELECT w, ord FROM words ORDER BY ord LIMIT 4) AS first_words))
  END
$$;
--> statement-breakpoint
-- Forced RLS applies to the table owner too, and migrations run as the owner
-- (DATABASE_MIGRATION_URL), which is no superuser in production: lift FORCE for the backfill,
-- inside this migration's transaction (which holds the table's lock), and restore it below.
ALTER TABLE patients NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
INSERT INTO patient_number_counters (hospital_id, prefix, next_value)
SELECT h.id, patient_number_prefix(h.name),
       1 + (SELECT count(*) FROM patients p WHERE p.hospital_id = h.id)::integer
FROM hospitals h;
--> statement-breakpoint
-- Existing patients are numbered 1, 2, 3... per hospital in the order they were added.
UPDATE patients p
SET patient_number = c.prefix || '-' ||
    CASE WHEN r.n < 1000000 THEN lpad(r.n::text, 6, '0') ELSE r.n::text END
FROM (
  SELECT hospital_id, id, row_number() OVER (PARTITION BY hospital_id ORDER BY created_at, id) AS n
  FROM patients
) r
JOIN patient_number_counters c ON c.hospital_id = r.hospital_id
WHERE p.hospital_id = r.hospital_id AND p.id = r.id;
--> statement-breakpoint
ALTER TABLE patients FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP FUNCTION patient_number_prefix(text);
--> statement-breakpoint
ALTER TABLE "patients" ALTER COLUMN "patient_number" SET NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "patients_hospital_number_idx" ON "patients" USING btree ("hospital_id","patient_number");
--> statement-breakpoint
-- Search by number ('SMH-000012', '000012'), like name, email and phone (0001).
CREATE INDEX patients_patient_number_trgm_idx ON patients USING gin (patient_number gin_trgm_ops);
--> statement-breakpoint
-- A tenant table like the others (0001): app_user reads, creates and advances counters only.
GRANT SELECT, INSERT, UPDATE ON patient_number_counters TO app_user;
--> statement-breakpoint
ALTER TABLE patient_number_counters ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE patient_number_counters FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON patient_number_counters
  USING (hospital_id = nullif(current_setting('app.hospital_id', true), '')::uuid)
  WITH CHECK (hospital_id = nullif(current_setting('app.hospital_id', true), '')::uuid);
--> statement-breakpoint
-- Numbers a new patient when the insert does not give one. It runs as the inserting role
-- (SECURITY INVOKER: app_user inside withTenant, so the counter is read under RLS too). The
-- upsert takes the counter's row lock until commit, so concurrent adds in one hospital wait
-- for each other: numbers are distinct and consecutive, and a rolled-back add gives its
-- number back. A hospital without a counter (none should lack one) starts one with 'PT'.
CREATE FUNCTION assign_patient_number() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER AS $$
DECLARE
  number_prefix text;
  number_value integer;
BEGIN
  IF NEW.patient_number IS NULL THEN
    INSERT INTO public.patient_number_counters AS c (hospital_id, prefix, next_value)
    VALUES (NEW.hospital_id, 'PT', 2)
    ON CONFLICT (hospital_id) DO UPDATE SET next_value = c.next_value + 1
    RETURNING c.prefix, c.next_value - 1 INTO number_prefix, number_value;
    NEW.patient_number := number_prefix || '-' || CASE
      WHEN number_value < 1000000 THEN lpad(number_value::text, 6, '0')
      ELSE number_value::text
    END;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER patients_assign_number BEFORE INSERT ON patients
  FOR EACH ROW EXECUTE FUNCTION assign_patient_number();
