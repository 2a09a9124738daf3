CREATE TABLE "meta_connections" (
	"hospital_id" uuid PRIMARY KEY NOT NULL,
	"page_id" text,
	"page_access_token_enc" text,
	"app_secret_enc" text,
	"verify_token_enc" text,
	"status" text DEFAULT 'ok' NOT NULL,
	"last_error" text,
	"last_sync_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meta_pages" (
	"page_id" text PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"verify_token_sha256" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "meta_connections" ADD CONSTRAINT "meta_connections_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meta_pages" ADD CONSTRAINT "meta_pages_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "meta_pages_hospital_idx" ON "meta_pages" USING btree ("hospital_id");--> statement-breakpoint
CREATE INDEX "meta_pages_verify_token_idx" ON "meta_pages" USING btree ("verify_token_sha256");--> statement-breakpoint
-- Hand-written from here (docs/decisions/016). meta_connections is a tenant table like leads
-- (0009): app_user only, RLS forced, the tenant read once per statement. meta_pages is a
-- platform table like jobs (0010): the public webhook (app_platform, no tenant yet) routes a
-- page id to its hospital; a hospital's request (app_user) sees and writes its own row only.
-- "when" in the journal is set after 0010's hand-set value so that databases at 0010 apply it.
GRANT SELECT, INSERT, UPDATE, DELETE ON meta_connections TO app_user;
--> statement-breakpoint
ALTER TABLE meta_connections ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE meta_connections FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON meta_connections
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
GRANT SELECT ON meta_pages TO app_platform;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON meta_pages TO app_user;
--> statement-breakpoint
ALTER TABLE meta_pages ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE meta_pages FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY platform_read ON meta_pages FOR SELECT TO app_platform USING (true);
--> statement-breakpoint
CREATE POLICY tenant_own ON meta_pages TO app_user
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
