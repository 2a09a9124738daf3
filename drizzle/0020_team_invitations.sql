-- Hand-written (issue 27, Admin → a hospital admin's team): invitations to join a hospital.
-- A tenant table: hospital_id leads every key, RLS enabled and forced (as 0016/0017). The
-- link's secret is stored only as a SHA-256 hash; a link works once (accepted_at), until it
-- expires (expires_at, 7 days) or is revoked (revoked_at). No foreign key to users: users is a
-- platform table keyed by id alone (tenant keys lead with hospital_id).
CREATE TABLE invitations (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  id uuid DEFAULT gen_random_uuid() NOT NULL,
  email text NOT NULL,
  name text NOT NULL,
  role text NOT NULL,
  token_hash text NOT NULL,
  invited_by_user_id text,
  expires_at timestamp with time zone NOT NULL,
  accepted_at timestamp with time zone,
  accepted_user_id text,
  revoked_at timestamp with time zone,
  sent_count integer DEFAULT 1 NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  updated_at timestamp with time zone DEFAULT now() NOT NULL,
  PRIMARY KEY (hospital_id, id),
  CONSTRAINT invitations_role_check CHECK (role in ('admin', 'doctor', 'nurse', 'receptionist', 'viewer')),
  CONSTRAINT invitations_email_check CHECK (email = lower(email) and length(email) <= 254),
  CONSTRAINT invitations_token_hash_check CHECK (token_hash ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE UNIQUE INDEX invitations_hospital_token_idx ON invitations (hospital_id, token_hash);
--> statement-breakpoint
-- One open invitation per address and hospital (an expired one is revoked when re-invited).
CREATE UNIQUE INDEX invitations_hospital_open_email_idx ON invitations (hospital_id, email)
  WHERE accepted_at IS NULL AND revoked_at IS NULL;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON invitations TO app_user;
--> statement-breakpoint
ALTER TABLE invitations ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE invitations FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON invitations
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
