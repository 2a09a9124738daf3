-- Hand-written (issue 24, docs/decisions/021). A page's claim says when it was made and last
-- proven, and how many webhook deliveries for it failed the signature check since the last
-- accepted one; the hospital's connection keeps why its webhook stopped (taken over, released).
ALTER TABLE "meta_pages" ADD COLUMN "claimed_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
ALTER TABLE "meta_pages" ADD COLUMN "last_proven_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
ALTER TABLE "meta_pages" ADD COLUMN "signature_failures" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "meta_pages" ADD COLUMN "signature_failing_since" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "meta_connections" ADD COLUMN "webhook_error" text;
--> statement-breakpoint
-- The platform (app_platform) now moves claims: a hospital's fresh proof takes a page over from
-- another hospital (whose row its own app_user cannot see), the super admin releases one, and
-- the public webhook counts signature failures on the page's row. app_user keeps seeing and
-- writing its own hospital's row only (tenant_own, 0011).
GRANT INSERT, UPDATE, DELETE ON meta_pages TO app_platform;
--> statement-breakpoint
DROP POLICY IF EXISTS platform_read ON meta_pages;
--> statement-breakpoint
CREATE POLICY platform_all ON meta_pages TO app_platform USING (true) WITH CHECK (true);
