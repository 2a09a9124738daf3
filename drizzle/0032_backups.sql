-- Hand-written (issue 29, Backups; docs/decisions/039-backups.md): a hospital's backup
-- configurations, the log of every backup run (the encrypted file lives in object storage,
-- and on Google Drive for Drive configurations), uploaded backup files and restore runs.
-- Tenant tables under forced RLS keyed (hospital_id, id).
CREATE TABLE backup_configurations (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  backup_type text NOT NULL,
  frequency text NOT NULL,
  data_types text[] NOT NULL,
  gdrive_access_token_enc text,
  gdrive_folder_id text,
  is_active boolean NOT NULL DEFAULT true,
  last_backup timestamptz,
  last_run_at timestamptz,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (hospital_id, id),
  CONSTRAINT backup_configurations_type_check CHECK (backup_type in ('offline', 'gdrive')),
  CONSTRAINT backup_configurations_frequency_check CHECK (frequency in ('1hour', '1day', '1week', '1month')),
  CONSTRAINT backup_configurations_data_types_check CHECK (cardinality(data_types) BETWEEN 1 AND 3 AND data_types <@ ARRAY['leads', 'sales', 'billing']::text[]),
  CONSTRAINT backup_configurations_gdrive_check CHECK (backup_type = 'offline' OR gdrive_access_token_enc IS NOT NULL),
  CONSTRAINT backup_configurations_folder_check CHECK (gdrive_folder_id IS NULL OR length(gdrive_folder_id) BETWEEN 1 AND 200)
);
--> statement-breakpoint
CREATE TABLE backup_logs (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  configuration_id uuid,
  status text NOT NULL DEFAULT 'running',
  backup_type text NOT NULL,
  data_types text[] NOT NULL,
  origin text NOT NULL DEFAULT 'manual',
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  data_size bigint,
  record_count integer,
  progress integer NOT NULL DEFAULT 0,
  error text,
  storage_key text,
  drive_file_id text,
  files_deleted_at timestamptz,
  created_by text,
  PRIMARY KEY (hospital_id, id),
  FOREIGN KEY (hospital_id, configuration_id) REFERENCES backup_configurations (hospital_id, id) ON DELETE SET NULL (configuration_id),
  CONSTRAINT backup_logs_status_check CHECK (status in ('running', 'success', 'failed')),
  CONSTRAINT backup_logs_type_check CHECK (backup_type in ('offline', 'gdrive')),
  CONSTRAINT backup_logs_origin_check CHECK (origin in ('manual', 'scheduled', 'seed')),
  CONSTRAINT backup_logs_data_types_check CHECK (cardinality(data_types) BETWEEN 1 AND 3 AND data_types <@ ARRAY['leads', 'sales', 'billing']::text[]),
  CONSTRAINT backup_logs_progress_check CHECK (progress BETWEEN 0 AND 100),
  CONSTRAINT backup_logs_size_check CHECK (data_size IS NULL OR data_size >= 0),
  CONSTRAINT backup_logs_count_check CHECK (record_count IS NULL OR record_count >= 0),
  CONSTRAINT backup_logs_error_check CHECK (error IS NULL OR length(error) <= 1000)
);
--> statement-breakpoint
CREATE INDEX backup_logs_hospital_started_idx ON backup_logs (hospital_id, started_at);
--> statement-breakpoint
-- One run of a configuration at a time (Run Now twice answers 409; two schedulers, one run).
CREATE UNIQUE INDEX backup_logs_one_running_idx ON backup_logs (hospital_id, configuration_id) WHERE status = 'running' AND configuration_id IS NOT NULL;
--> statement-breakpoint
CREATE TABLE backup_uploads (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  storage_key text NOT NULL,
  size bigint NOT NULL,
  sha256 text NOT NULL,
  uploaded_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (hospital_id, id),
  CONSTRAINT backup_uploads_size_check CHECK (size > 0)
);
--> statement-breakpoint
CREATE TABLE backup_restores (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  status text NOT NULL DEFAULT 'running',
  mode text NOT NULL,
  source_log_id uuid,
  source_upload_id uuid,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  progress integer NOT NULL DEFAULT 0,
  error text,
  tables jsonb,
  created_by text,
  PRIMARY KEY (hospital_id, id),
  CONSTRAINT backup_restores_status_check CHECK (status in ('running', 'success', 'failed')),
  CONSTRAINT backup_restores_mode_check CHECK (mode in ('replace', 'merge')),
  CONSTRAINT backup_restores_source_check CHECK ((source_log_id IS NULL) <> (source_upload_id IS NULL)),
  CONSTRAINT backup_restores_progress_check CHECK (progress BETWEEN 0 AND 100),
  CONSTRAINT backup_restores_error_check CHECK (error IS NULL OR length(error) <= 1000)
);
--> statement-breakpoint
-- One restore of a hospital at a time.
CREATE UNIQUE INDEX backup_restores_one_running_idx ON backup_restores (hospital_id) WHERE status = 'running';
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON backup_configurations, backup_logs, backup_uploads, backup_restores TO app_user;
--> statement-breakpoint
ALTER TABLE backup_configurations ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE backup_configurations FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON backup_configurations
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
ALTER TABLE backup_logs ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE backup_logs FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON backup_logs
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
ALTER TABLE backup_uploads ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE backup_uploads FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON backup_uploads
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
ALTER TABLE backup_restores ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE backup_restores FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON backup_restores
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
