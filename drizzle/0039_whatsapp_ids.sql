-- Hand-written (issue 39, item 13/14). messaging_routes becomes the index of proven WhatsApp ids:
-- provider 'meta' maps a phone number id, 'meta-waba' a WhatsApp Business Account id, to the one
-- hospital whose access token last proved it with Meta's Graph API (Settings' save). The public
-- webhook routes by this index and decrypts only the hospital it names; the GET handshake finds
-- its hospital by the verify token's SHA-256, stored beside the route (no secret decrypted).
ALTER TABLE messaging_routes ADD COLUMN verify_token_sha256 text;
--> statement-breakpoint
ALTER TABLE messaging_routes ADD COLUMN claimed_at timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
-- Null for a route saved before ids were proven (kept until a fresh proof by anyone moves it).
ALTER TABLE messaging_routes ADD COLUMN last_proven_at timestamp with time zone;
--> statement-breakpoint
CREATE INDEX messaging_routes_verify_token_idx ON messaging_routes (verify_token_sha256)
  WHERE verify_token_sha256 IS NOT NULL;
--> statement-breakpoint
-- The platform (app_platform) now moves routes: a hospital's fresh proof takes an id over from
-- another hospital, whose row that hospital's app_user cannot see (as meta_pages, 0014).
-- app_user keeps seeing and writing its own hospital's rows only (tenant_own, 0016).
GRANT INSERT, UPDATE, DELETE ON messaging_routes TO app_platform;
--> statement-breakpoint
DROP POLICY IF EXISTS platform_read ON messaging_routes;
--> statement-breakpoint
CREATE POLICY platform_all ON messaging_routes TO app_platform USING (true) WITH CHECK (true);
--> statement-breakpoint
-- Template status updates name only the business account: until now a scan of every hospital's
-- decrypted settings found it. A hospital that already holds its number's route keeps receiving
-- them, when no other hospital names the same account (otherwise the next proof decides).
INSERT INTO messaging_routes (provider, external_id, hospital_id)
SELECT 'meta-waba', c.settings ->> 'whatsapp.businessAccountId', c.hospital_id
FROM messaging_connections c
WHERE c.whatsapp_provider = 'meta'
  AND coalesce(c.settings ->> 'whatsapp.businessAccountId', '') <> ''
  AND EXISTS (
    SELECT 1 FROM messaging_routes r WHERE r.provider = 'meta' AND r.hospital_id = c.hospital_id
  )
  AND (
    SELECT count(*) FROM messaging_connections o
    WHERE o.whatsapp_provider = 'meta'
      AND o.settings ->> 'whatsapp.businessAccountId' = c.settings ->> 'whatsapp.businessAccountId'
  ) = 1
ON CONFLICT DO NOTHING;
