-- Hand-written (issue 28, Support Tickets; docs/decisions/037-support-tickets.md): a hospital's
-- tickets to the platform's support, their comment thread and their attached files. Tenant
-- tables under forced RLS keyed (hospital_id, id). The platform side (super admins) reads and
-- moves them hospital by hospital with app.hospital_id set, like every tenant read.
CREATE TABLE support_tickets (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  subject text NOT NULL,
  description text NOT NULL,
  category text NOT NULL DEFAULT 'technical',
  priority text NOT NULL DEFAULT 'medium',
  status text NOT NULL DEFAULT 'open',
  resolution_notes text,
  resolved_at timestamptz,
  assigned_to text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (hospital_id, id),
  CONSTRAINT support_tickets_subject_check CHECK (length(subject) BETWEEN 1 AND 200),
  CONSTRAINT support_tickets_description_check CHECK (length(description) BETWEEN 1 AND 5000),
  CONSTRAINT support_tickets_category_check CHECK (category in ('technical', 'billing', 'feature_request', 'bug_report', 'training', 'integration', 'other')),
  CONSTRAINT support_tickets_priority_check CHECK (priority in ('low', 'medium', 'high', 'urgent')),
  CONSTRAINT support_tickets_status_check CHECK (status in ('open', 'in_progress', 'resolved', 'closed')),
  CONSTRAINT support_tickets_resolution_notes_check CHECK (resolution_notes IS NULL OR length(resolution_notes) <= 5000)
);
--> statement-breakpoint
CREATE INDEX support_tickets_hospital_created_idx ON support_tickets (hospital_id, created_at);
--> statement-breakpoint
CREATE INDEX support_tickets_hospital_status_idx ON support_tickets (hospital_id, status);
--> statement-breakpoint
CREATE TABLE support_ticket_comments (
  hospital_id uuid NOT NULL,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  ticket_id uuid NOT NULL,
  author_user_id text NOT NULL,
  author_side text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (hospital_id, id),
  FOREIGN KEY (hospital_id, ticket_id) REFERENCES support_tickets (hospital_id, id) ON DELETE cascade,
  CONSTRAINT support_ticket_comments_side_check CHECK (author_side in ('hospital', 'platform')),
  CONSTRAINT support_ticket_comments_body_check CHECK (length(body) BETWEEN 1 AND 5000)
);
--> statement-breakpoint
CREATE INDEX support_ticket_comments_ticket_idx ON support_ticket_comments (hospital_id, ticket_id, created_at);
--> statement-breakpoint
CREATE TABLE support_ticket_attachments (
  hospital_id uuid NOT NULL,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  ticket_id uuid NOT NULL,
  storage_key text NOT NULL,
  filename text NOT NULL,
  size bigint NOT NULL,
  content_type text NOT NULL,
  sha256 text NOT NULL,
  uploaded_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (hospital_id, id),
  FOREIGN KEY (hospital_id, ticket_id) REFERENCES support_tickets (hospital_id, id) ON DELETE cascade,
  CONSTRAINT support_ticket_attachments_filename_check CHECK (length(filename) BETWEEN 1 AND 200),
  CONSTRAINT support_ticket_attachments_size_check CHECK (size > 0)
);
--> statement-breakpoint
CREATE INDEX support_ticket_attachments_ticket_idx ON support_ticket_attachments (hospital_id, ticket_id, created_at);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON support_tickets, support_ticket_comments, support_ticket_attachments TO app_user;
--> statement-breakpoint
ALTER TABLE support_tickets ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE support_tickets FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON support_tickets
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
ALTER TABLE support_ticket_comments ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE support_ticket_comments FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON support_ticket_comments
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
ALTER TABLE support_ticket_attachments ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE support_ticket_attachments FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON support_ticket_attachments
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
