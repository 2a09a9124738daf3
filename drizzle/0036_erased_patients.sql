-- Hand-written (issue 39: erasure survives restore; per-hospital resilience in retention).
-- erased_patients: the durable per-hospital list of erased patients (ids only, no personal
-- data) that every restore re-applies (data-rights/patient-erase.service.ts applyErasure).
-- It outlives the patient rows: no foreign key to patients, and app_user may insert and read
-- it but never update or delete it, so Delete All Data keeps it too (a restore of an older
-- backup after Delete All Data still finds the erased patients erased). lead_ids are the
-- leads anonymised with the patient, so a lead that a backup holds unconverted (taken before
-- it was linked to the patient) is anonymised again as well.
CREATE TABLE erased_patients (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  patient_id uuid NOT NULL,
  lead_ids uuid[] NOT NULL DEFAULT '{}',
  erased_at timestamptz NOT NULL DEFAULT now(),
  erased_by text,
  PRIMARY KEY (hospital_id, patient_id)
);
--> statement-breakpoint
GRANT SELECT, INSERT ON erased_patients TO app_user;
--> statement-breakpoint
ALTER TABLE erased_patients ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE erased_patients FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON erased_patients
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
-- Retention records the local and the Google Drive deletion of an old backup separately:
-- files_deleted_at (and storage_key cleared) is the local file; drive_deleted_at the Drive
-- copy; drive_delete_error what Drive answered when that deletion failed (retried hourly).
ALTER TABLE backup_logs ADD COLUMN drive_deleted_at timestamptz;
--> statement-breakpoint
ALTER TABLE backup_logs ADD COLUMN drive_delete_error text;
--> statement-breakpoint
ALTER TABLE backup_logs ADD CONSTRAINT backup_logs_drive_delete_error_check CHECK (drive_delete_error IS NULL OR length(drive_delete_error) <= 1000);
--> statement-breakpoint
-- Backups expired before this migration had both copies deleted together.
UPDATE backup_logs SET drive_deleted_at = files_deleted_at WHERE drive_file_id IS NOT NULL AND files_deleted_at IS NOT NULL;
