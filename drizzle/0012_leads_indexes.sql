-- Issue 8 bench: the leads list ordered DESC (NULLS FIRST, as ORDER BY ... DESC means) reads its index
-- in order and stops at the page; before, NULLS LAST indexes made every page sort all the
-- hospital's leads. Follow-ups are counted from a range of the waiting leads (GET /api/stats).
DROP INDEX "leads_hospital_assignee_idx";--> statement-breakpoint
DROP INDEX "leads_hospital_recent_idx";--> statement-breakpoint
DROP INDEX "leads_hospital_status_recent_idx";--> statement-breakpoint
DROP INDEX "leads_hospital_source_recent_idx";--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "follow_up_from" timestamp with time zone GENERATED ALWAYS AS (coalesce(last_contact_at, created_at)) STORED;--> statement-breakpoint
CREATE INDEX "leads_hospital_assignee_recent_idx" ON "leads" USING btree ("hospital_id","assigned_to_user_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "leads_hospital_follow_up_idx" ON "leads" USING btree ("hospital_id","follow_up_from") WHERE status in ('contacted', 'follow-up');--> statement-breakpoint
CREATE INDEX "leads_hospital_recent_idx" ON "leads" USING btree ("hospital_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "leads_hospital_status_recent_idx" ON "leads" USING btree ("hospital_id","status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "leads_hospital_source_recent_idx" ON "leads" USING btree ("hospital_id","source","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);