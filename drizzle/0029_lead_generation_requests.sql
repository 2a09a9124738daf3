-- Hand-written (issue 28, docs/decisions/034): lead-generation campaign requests. A tenant table
-- under forced RLS, keyed (hospital_id, id). The hospital's admins submit requests; the platform's
-- super admins move them requested → approved → active ⇄ paused → completed with a note, each
-- move writing the request in the hospital's own tenant transaction (RLS stays the only gate).
-- daily_budget is 100 times the rupee amount (spec section 9); the estimates and the one-time
-- cost are computed by the server from the budget and the options, never taken from the client.
CREATE TABLE lead_generation_requests (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  daily_budget integer NOT NULL,
  has_creative boolean NOT NULL DEFAULT false,
  needs_creative boolean NOT NULL DEFAULT false,
  has_video boolean NOT NULL DEFAULT false,
  needs_video_editing boolean NOT NULL DEFAULT false,
  notes text,
  expected_leads_min integer NOT NULL,
  expected_leads_max integer NOT NULL,
  one_time_cost integer NOT NULL,
  status text NOT NULL DEFAULT 'requested',
  status_note text,
  status_changed_at timestamptz,
  status_changed_by text,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT lead_generation_requests_pkey PRIMARY KEY (hospital_id, id),
  CONSTRAINT lead_generation_requests_budget_check
    CHECK (daily_budget BETWEEN 100000 AND 2000000 AND (daily_budget - 100000) % 50000 = 0),
  CONSTRAINT lead_generation_requests_creative_check CHECK (NOT (has_creative AND needs_creative)),
  CONSTRAINT lead_generation_requests_video_check CHECK (NOT (has_video AND needs_video_editing)),
  CONSTRAINT lead_generation_requests_notes_check CHECK (notes IS NULL OR length(notes) <= 2000),
  CONSTRAINT lead_generation_requests_status_note_check
    CHECK (status_note IS NULL OR length(status_note) <= 1000),
  CONSTRAINT lead_generation_requests_leads_check
    CHECK (expected_leads_min BETWEEN 0 AND expected_leads_max AND expected_leads_max <= 400),
  CONSTRAINT lead_generation_requests_cost_check CHECK (one_time_cost >= 0),
  CONSTRAINT lead_generation_requests_status_check
    CHECK (status IN ('requested', 'approved', 'active', 'paused', 'completed'))
);
--> statement-breakpoint
CREATE INDEX lead_generation_requests_hospital_created_idx
  ON lead_generation_requests (hospital_id, created_at);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON lead_generation_requests TO app_user;
--> statement-breakpoint
ALTER TABLE lead_generation_requests ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE lead_generation_requests FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON lead_generation_requests
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
