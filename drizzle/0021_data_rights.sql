-- Issue 27, "Patients' data rights (India's DPDP Act 2023)". (Numbered 0020 on the datarights
-- branch; the merge renumbers it 0022_data_rights.)
-- A hospital's grievance officer (name and email), set in Settings → General and shown on the
-- public booking page. hospitals is a platform table: no RLS change.
ALTER TABLE hospitals ADD COLUMN grievance_name text;
--> statement-breakpoint
ALTER TABLE hospitals ADD COLUMN grievance_email text;
--> statement-breakpoint
-- An erased patient (POST /api/patients/:id/erase): the row stays (its appointments and the
-- invoices the law keeps point at it) with its personal fields cleared; these say when and by
-- whom, so a second erase is refused with 409.
ALTER TABLE patients ADD COLUMN erased_at timestamptz;
--> statement-breakpoint
ALTER TABLE patients ADD COLUMN erased_by text;
