-- Issue 26, docs/decisions/026-appointments-billing.md: appointments, online booking and billing.
-- Hand-written (mirrors src/server/db/schema/appointments.ts, schema/billing.ts and the new
-- columns of schema/hospitals.ts; tests/integration/constraints.api.test.ts keeps the CHECK
-- lists equal to the lists in src/shared/scheduling.ts and src/shared/billing.ts).
--
-- btree_gist: the exclusion constraint that keeps a doctor from two overlapping active
-- appointments compares hospital_id and doctor_id with = inside a GiST index.
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
-- The hospital's settings this issue needs (Settings -> General): a public booking slug, GST
-- details, a UPI id for the invoice's QR code, the invoice number prefix, working hours per
-- weekday (0 = Sunday; null = closed) and appointment reminder offsets in minutes.
ALTER TABLE hospitals
  ADD COLUMN slug text,
  ADD COLUMN gstin text,
  ADD COLUMN state_code text,
  ADD COLUMN upi_id text,
  ADD COLUMN invoice_prefix text,
  ADD COLUMN working_hours jsonb DEFAULT '{"0":null,"1":["09:00","20:00"],"2":["09:00","20:00"],"3":["09:00","20:00"],"4":["09:00","20:00"],"5":["09:00","20:00"],"6":["09:00","20:00"]}'::jsonb NOT NULL,
  ADD COLUMN reminder_offsets integer[] DEFAULT '{1440,120}' NOT NULL;
--> statement-breakpoint
-- A hospital's slug comes from its name (a number added where two would clash) and its invoice
-- prefix from the initials of its name (SMH for Sunrise Multispeciality Hospital), unless
-- given: a BEFORE INSERT trigger for new hospitals, the same function for existing ones.
CREATE FUNCTION hospital_slug_for(p_name text, p_id uuid) RETURNS text
LANGUAGE plpgsql AS $f$
DECLARE
  base text := coalesce(nullif(trim(both '-' from left(trim(both '-' from
    lower(regexp_replace(p_name, '[^a-zA-Z0-9]+', '-', 'g'))), 50)), ''), 'hospital');
  candidate text := base;
  n integer := 1;
BEGIN
  WHILE EXISTS (SELECT 1 FROM hospitals WHERE slug = candidate AND id <> p_id) LOOP
    n := n + 1;
    candidate := base || '-' || n;
  END LOOP;
  RETURN candidate;
END
$f$;
--> statement-breakpoint
CREATE FUNCTION hospital_prefix_for(p_name text) RETURNS text
LANGUAGE sql IMMUTABLE AS $f$
  SELECT coalesce(nullif(left(upper(string_agg(left(w, 1), '')), 6), ''), 'INV')
  FROM regexp_split_to_table(regexp_replace(p_name, '[^a-zA-Z0-9 ]+', ' ', 'g'), '\s+') AS w
  WHERE w <> ''
$f$;
--> statement-breakpoint
CREATE FUNCTION assign_hospital_defaults() RETURNS trigger
LANGUAGE plpgsql AS $f$
BEGIN
  IF NEW.slug IS NULL THEN NEW.slug := hospital_slug_for(NEW.name, NEW.id); END IF;
  IF NEW.invoice_prefix IS NULL THEN NEW.invoice_prefix := hospital_prefix_for(NEW.name); END IF;
  RETURN NEW;
END
$f$;
--> statement-breakpoint
CREATE TRIGGER hospitals_assign_defaults BEFORE INSERT ON hospitals
  FOR EACH ROW EXECUTE FUNCTION assign_hospital_defaults();
--> statement-breakpoint
DO $backfill$
DECLARE
  h record;
BEGIN
  FOR h IN SELECT id, name FROM hospitals ORDER BY created_at, id LOOP
    UPDATE hospitals SET slug = hospital_slug_for(h.name, h.id),
      invoice_prefix = hospital_prefix_for(h.name) WHERE id = h.id;
  END LOOP;
END
$backfill$;
--> statement-breakpoint
ALTER TABLE hospitals
  ADD CONSTRAINT hospitals_slug_check CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(slug) <= 60),
  ADD CONSTRAINT hospitals_gstin_check CHECK (gstin ~ '^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$'),
  ADD CONSTRAINT hospitals_state_code_check CHECK (state_code ~ '^[0-9]{2}$'),
  ADD CONSTRAINT hospitals_upi_id_check CHECK (upi_id ~ '^[a-zA-Z0-9._-]{2,64}@[a-zA-Z][a-zA-Z0-9]{1,63}$'),
  ADD CONSTRAINT hospitals_invoice_prefix_check CHECK (invoice_prefix ~ '^[A-Z0-9]{1,10}$');
--> statement-breakpoint
CREATE UNIQUE INDEX hospitals_slug_idx ON hospitals (slug);
--> statement-breakpoint
-- The service catalogue: what a clinic offers, with its code (SAC/HSN), default price in paise
-- and GST rate; pre-fills invoice lines, names the appointment's service type and lists what
-- the public booking page offers.
CREATE TABLE services (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  name text NOT NULL,
  code text,
  default_price bigint DEFAULT 0 NOT NULL,
  gst_rate integer DEFAULT 0 NOT NULL,
  duration_minutes integer DEFAULT 30 NOT NULL,
  bookable boolean DEFAULT true NOT NULL,
  active boolean DEFAULT true NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY (hospital_id, id),
  CONSTRAINT services_name_check CHECK (length(btrim(name)) between 1 and 120),
  CONSTRAINT services_price_check CHECK (default_price between 0 and 1000000000),
  CONSTRAINT services_gst_rate_check CHECK (gst_rate in (0, 5, 12, 18)),
  CONSTRAINT services_duration_check CHECK (duration_minutes in (15, 30, 45, 60))
);
--> statement-breakpoint
CREATE UNIQUE INDEX services_hospital_name_idx ON services (hospital_id, lower(name));
--> statement-breakpoint
-- An appointment: [starts_at, ends_at) of one doctor (a member with the doctor role; users is
-- a platform table, so the service checks the doctor's hospital and role). No doctor has two
-- overlapping active (scheduled or confirmed) appointments: the exclusion constraint holds it
-- under concurrent requests.
CREATE TABLE appointments (
  hospital_id uuid NOT NULL,
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  patient_id uuid NOT NULL,
  doctor_id uuid NOT NULL,
  service_id uuid,
  service_type text NOT NULL,
  starts_at timestamp with time zone NOT NULL,
  ends_at timestamp with time zone NOT NULL,
  duration_minutes integer NOT NULL,
  status text DEFAULT 'scheduled' NOT NULL,
  source text DEFAULT 'staff' NOT NULL,
  lead_id uuid,
  notes text,
  cancel_reason text,
  created_by uuid,
  status_changed_at timestamp with time zone DEFAULT now() NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY (hospital_id, id),
  FOREIGN KEY (hospital_id, patient_id) REFERENCES patients (hospital_id, id) ON DELETE cascade,
  FOREIGN KEY (hospital_id, service_id) REFERENCES services (hospital_id, id),
  FOREIGN KEY (hospital_id, lead_id) REFERENCES leads (hospital_id, id) ON DELETE set null (lead_id),
  CONSTRAINT appointments_status_check CHECK (status in ('scheduled', 'confirmed', 'completed', 'cancelled', 'no-show')),
  CONSTRAINT appointments_source_check CHECK (source in ('staff', 'online')),
  CONSTRAINT appointments_duration_check CHECK (duration_minutes in (15, 30, 45, 60)),
  CONSTRAINT appointments_ends_check CHECK (ends_at = starts_at + make_interval(mins => duration_minutes)),
  CONSTRAINT appointments_service_type_check CHECK (length(btrim(service_type)) between 1 and 120),
  CONSTRAINT appointments_no_overlap EXCLUDE USING gist (
    hospital_id WITH =, doctor_id WITH =, tstzrange(starts_at, ends_at, '[)') WITH &&
  ) WHERE (status in ('scheduled', 'confirmed'))
);
--> statement-breakpoint
CREATE INDEX appointments_hospital_starts_idx ON appointments (hospital_id, starts_at);
--> statement-breakpoint
CREATE INDEX appointments_hospital_doctor_starts_idx ON appointments (hospital_id, doctor_id, starts_at);
--> statement-breakpoint
CREATE INDEX appointments_hospital_patient_starts_idx ON appointments (hospital_id, patient_id, starts_at);
--> statement-breakpoint
-- The public booking page per hospital: on or off, and which doctors it offers (none listed:
-- every doctor). Which services it offers is services.bookable.
CREATE TABLE booking_settings (
  hospital_id uuid PRIMARY KEY NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  enabled boolean DEFAULT false NOT NULL,
  doctor_ids uuid[] DEFAULT '{}' NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- A slot held for a visitor of the booking page while they confirm the code sent to their
-- mobile (5 minutes). The code is stored only as a hash; attempts count the tries (5 at most).
-- confirmed_at and appointment_id are set when the code is confirmed and the booking made.
CREATE TABLE booking_holds (
  hospital_id uuid NOT NULL,
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  doctor_id uuid NOT NULL,
  service_id uuid NOT NULL,
  starts_at timestamp with time zone NOT NULL,
  ends_at timestamp with time zone NOT NULL,
  name text NOT NULL,
  phone text NOT NULL,
  channel text NOT NULL,
  code_hash text NOT NULL,
  attempts integer DEFAULT 0 NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  confirmed_at timestamp with time zone,
  appointment_id uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY (hospital_id, id),
  FOREIGN KEY (hospital_id, service_id) REFERENCES services (hospital_id, id) ON DELETE cascade,
  FOREIGN KEY (hospital_id, appointment_id) REFERENCES appointments (hospital_id, id) ON DELETE set null (appointment_id),
  CONSTRAINT booking_holds_channel_check CHECK (channel in ('whatsapp', 'sms')),
  CONSTRAINT booking_holds_attempts_check CHECK (attempts between 0 and 5),
  CONSTRAINT booking_holds_range_check CHECK (ends_at > starts_at)
);
--> statement-breakpoint
CREATE INDEX booking_holds_hospital_doctor_starts_idx ON booking_holds (hospital_id, doctor_id, starts_at);
--> statement-breakpoint
-- Appointment reminders are rows of reminders (0016) with their appointment and offset: one per
-- (appointment, offset, channel), so two instances never both schedule or send one.
ALTER TABLE reminders
  ADD COLUMN appointment_id uuid,
  ADD COLUMN offset_minutes integer;
--> statement-breakpoint
ALTER TABLE reminders ADD CONSTRAINT reminders_hospital_id_appointment_id_appointments_hospital_id_id_fk
  FOREIGN KEY (hospital_id, appointment_id) REFERENCES appointments (hospital_id, id) ON DELETE cascade;
--> statement-breakpoint
CREATE UNIQUE INDEX reminders_appointment_offset_idx ON reminders
  (hospital_id, appointment_id, offset_minutes, channel) WHERE appointment_id is not null;
--> statement-breakpoint
-- Invoice numbers run per hospital per financial year (April-March), gapless: the counter row
-- is locked by the transaction that creates the invoice (upsert ... returning).
CREATE TABLE invoice_counters (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  financial_year text NOT NULL,
  last_number integer DEFAULT 0 NOT NULL,
  PRIMARY KEY (hospital_id, financial_year),
  CONSTRAINT invoice_counters_year_check CHECK (financial_year ~ '^[0-9]{4}-[0-9]{2}$')
);
--> statement-breakpoint
-- An invoice. Amounts in paise, computed by the server from its lines. kind: a Bill of Supply
-- when every line is exempt (0 %), else a Tax Invoice (CGST + SGST within the hospital's state,
-- IGST across states). The patient's name is kept as billed; invoices are never deleted.
CREATE TABLE invoices (
  hospital_id uuid NOT NULL,
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  invoice_number text NOT NULL,
  financial_year text NOT NULL,
  sequence integer NOT NULL,
  patient_id uuid,
  patient_name text NOT NULL,
  patient_state_code text,
  appointment_id uuid,
  kind text NOT NULL,
  status text DEFAULT 'pending' NOT NULL,
  subtotal bigint NOT NULL,
  discount_total bigint DEFAULT 0 NOT NULL,
  taxable_total bigint NOT NULL,
  cgst bigint DEFAULT 0 NOT NULL,
  sgst bigint DEFAULT 0 NOT NULL,
  igst bigint DEFAULT 0 NOT NULL,
  amount bigint NOT NULL,
  amount_paid bigint DEFAULT 0 NOT NULL,
  issue_date date NOT NULL,
  due_date date NOT NULL,
  paid_at timestamp with time zone,
  cancelled_at timestamp with time zone,
  cancel_reason text,
  notes text,
  created_by uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY (hospital_id, id),
  FOREIGN KEY (hospital_id, patient_id) REFERENCES patients (hospital_id, id),
  FOREIGN KEY (hospital_id, appointment_id) REFERENCES appointments (hospital_id, id) ON DELETE set null (appointment_id),
  CONSTRAINT invoices_status_check CHECK (status in ('pending', 'paid', 'overdue', 'cancelled')),
  CONSTRAINT invoices_kind_check CHECK (kind in ('tax_invoice', 'bill_of_supply')),
  CONSTRAINT invoices_amounts_check CHECK (amount >= 0 and amount_paid >= 0 and amount_paid <= amount),
  CONSTRAINT invoices_due_check CHECK (due_date >= issue_date),
  CONSTRAINT invoices_cancel_check CHECK ((status = 'cancelled') = (cancelled_at is not null)),
  CONSTRAINT invoices_year_check CHECK (financial_year ~ '^[0-9]{4}-[0-9]{2}$')
);
--> statement-breakpoint
CREATE UNIQUE INDEX invoices_hospital_number_idx ON invoices (hospital_id, invoice_number);
--> statement-breakpoint
CREATE UNIQUE INDEX invoices_hospital_year_sequence_idx ON invoices (hospital_id, financial_year, sequence);
--> statement-breakpoint
CREATE INDEX invoices_hospital_created_idx ON invoices (hospital_id, created_at DESC, id DESC);
--> statement-breakpoint
CREATE INDEX invoices_hospital_status_created_idx ON invoices (hospital_id, status, created_at DESC, id DESC);
--> statement-breakpoint
CREATE INDEX invoices_hospital_patient_idx ON invoices (hospital_id, patient_id);
--> statement-breakpoint
CREATE INDEX invoices_hospital_due_idx ON invoices (hospital_id, due_date) WHERE status = 'pending';
--> statement-breakpoint
-- A line of an invoice: quantity at a unit price less a discount, taxed at its GST rate.
CREATE TABLE invoice_lines (
  hospital_id uuid NOT NULL,
  invoice_id uuid NOT NULL,
  line_no integer NOT NULL,
  service_id uuid,
  name text NOT NULL,
  code text,
  quantity integer NOT NULL,
  unit_price bigint NOT NULL,
  discount bigint DEFAULT 0 NOT NULL,
  gst_rate integer NOT NULL,
  taxable_value bigint NOT NULL,
  tax bigint NOT NULL,
  total bigint NOT NULL,
  PRIMARY KEY (hospital_id, invoice_id, line_no),
  FOREIGN KEY (hospital_id, invoice_id) REFERENCES invoices (hospital_id, id) ON DELETE cascade,
  FOREIGN KEY (hospital_id, service_id) REFERENCES services (hospital_id, id),
  CONSTRAINT invoice_lines_quantity_check CHECK (quantity between 1 and 1000),
  CONSTRAINT invoice_lines_price_check CHECK (unit_price between 0 and 1000000000),
  CONSTRAINT invoice_lines_discount_check CHECK (discount >= 0 and discount <= quantity * unit_price),
  CONSTRAINT invoice_lines_gst_rate_check CHECK (gst_rate in (0, 5, 12, 18)),
  CONSTRAINT invoice_lines_name_check CHECK (length(btrim(name)) between 1 and 200)
);
--> statement-breakpoint
-- A payment towards an invoice; several make a partial payment. The invoice turns paid when
-- they add up to its amount.
CREATE TABLE payments (
  hospital_id uuid NOT NULL,
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  invoice_id uuid NOT NULL,
  amount bigint NOT NULL,
  method text NOT NULL,
  reference text,
  paid_at timestamp with time zone DEFAULT now() NOT NULL,
  recorded_by uuid,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY (hospital_id, id),
  FOREIGN KEY (hospital_id, invoice_id) REFERENCES invoices (hospital_id, id) ON DELETE cascade,
  CONSTRAINT payments_amount_check CHECK (amount > 0),
  CONSTRAINT payments_method_check CHECK (method in ('cash', 'upi', 'card', 'bank_transfer', 'insurance'))
);
--> statement-breakpoint
CREATE INDEX payments_hospital_invoice_idx ON payments (hospital_id, invoice_id);
--> statement-breakpoint
-- Tenant tables: app_user only, RLS forced, the tenant read once per statement (as 0009).
DO $rls$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['services', 'appointments', 'booking_settings', 'booking_holds',
                           'invoice_counters', 'invoices', 'invoice_lines', 'payments'] LOOP
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO app_user', t);
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format($p$CREATE POLICY tenant_isolation ON %I
      USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
      WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))$p$, t);
  END LOOP;
END
$rls$;
