-- Issue 27, Settings → General → lead management: "contacts beyond the maximum number of
-- attempts flag the lead". A lead counts its contact attempts (outbound communications other
-- than system notes: calls, messages, emails), kept by a trigger in the same transaction as the
-- communication whatever path adds it (a staff log, a send, a bulk send). The flag is the count
-- beyond the hospital's lead_settings.max_contact_attempts (5 without a row); PUT /api/settings
-- recomputes it in the same transaction when the maximum changes.
ALTER TABLE leads ADD COLUMN contact_attempts integer NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE leads ADD COLUMN contact_limit_exceeded boolean NOT NULL DEFAULT false;
--> statement-breakpoint
UPDATE leads l SET contact_attempts = c.n
  FROM (
    SELECT hospital_id, lead_id, count(*)::int AS n FROM communications
    WHERE lead_id IS NOT NULL AND direction = 'outbound' AND type <> 'system'
    GROUP BY hospital_id, lead_id
  ) c
  WHERE l.hospital_id = c.hospital_id AND l.id = c.lead_id;
--> statement-breakpoint
UPDATE leads l SET contact_limit_exceeded = l.contact_attempts > coalesce(
    (SELECT s.max_contact_attempts FROM lead_settings s WHERE s.hospital_id = l.hospital_id), 5)
  WHERE l.contact_attempts > 0;
--> statement-breakpoint
-- Runs as the caller (app_user under RLS: only its own hospital's lead and settings are seen).
CREATE OR REPLACE FUNCTION leads_count_contact_attempt() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  UPDATE leads SET
    contact_attempts = contact_attempts + 1,
    contact_limit_exceeded = contact_attempts + 1 > coalesce(
      (SELECT s.max_contact_attempts FROM lead_settings s WHERE s.hospital_id = NEW.hospital_id), 5)
  WHERE hospital_id = NEW.hospital_id AND id = NEW.lead_id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER communications_count_contact_attempt
  AFTER INSERT ON communications
  FOR EACH ROW
  WHEN (NEW.lead_id IS NOT NULL AND NEW.direction = 'outbound' AND NEW.type <> 'system')
  EXECUTE FUNCTION leads_count_contact_attempt();
