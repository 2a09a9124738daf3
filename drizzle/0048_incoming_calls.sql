-- Hand-written (issue 41, voice calls; incoming and missed calls).
--  * voice_settings.ring_group: the staff (user ids) an incoming call rings and pops up for, in
--    order. Empty: staff with a verified phone among receptionists, else among admins
--    (src/server/modules/calls-incoming/ring-group.ts). users is a platform table, so ids only.
--  * leads.source gains 'phone': an unknown number that called the hospital (answered or
--    missed) becomes a lead with it.
--  * One live call per staff member holds for calls they place only: an incoming call rings
--    the ring group whatever its first member is doing, so the partial unique index is
--    narrowed to outbound calls.
--  * incoming_calls: per incoming call, whose screens it popped up on (the ring group then) and
--    whether the call created its lead (an unknown number). Tenant table, forced RLS.
ALTER TABLE voice_settings ADD COLUMN ring_group text[] NOT NULL DEFAULT '{}'::text[];
--> statement-breakpoint
ALTER TABLE voice_settings ADD CONSTRAINT voice_settings_ring_group_check CHECK (cardinality(ring_group) <= 20);
--> statement-breakpoint
ALTER TABLE leads DROP CONSTRAINT leads_source_check;
--> statement-breakpoint
ALTER TABLE leads ADD CONSTRAINT leads_source_check CHECK (source IN ('meta-facebook', 'meta-instagram', 'google-ads', 'referral', 'manual', 'walk-in', 'csv-import', 'phone'));
--> statement-breakpoint
DROP INDEX calls_hospital_user_live_idx;
--> statement-breakpoint
CREATE UNIQUE INDEX calls_hospital_user_live_idx ON calls (hospital_id, user_id) WHERE status in ('queued', 'ringing', 'in-progress') AND direction = 'outbound';
--> statement-breakpoint
CREATE TABLE incoming_calls (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  call_id uuid NOT NULL,
  ring_user_ids text[] NOT NULL DEFAULT '{}'::text[],
  new_lead boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (hospital_id, call_id),
  FOREIGN KEY (hospital_id, call_id) REFERENCES calls (hospital_id, id) ON DELETE cascade,
  CONSTRAINT incoming_calls_ring_check CHECK (cardinality(ring_user_ids) <= 50)
);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON incoming_calls TO app_user;
--> statement-breakpoint
ALTER TABLE incoming_calls ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE incoming_calls FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON incoming_calls
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
