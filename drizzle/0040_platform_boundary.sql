-- Issue 39: onboarding_tasks was the one table with a hospital_id whose primary key did not
-- lead with it. Keyed (hospital_id, id) like every tenant table, so it shards by hospital with
-- the rest (ENGINEERING.md, "Data and tenants"). Nothing references its id.
ALTER TABLE onboarding_tasks DROP CONSTRAINT onboarding_tasks_pkey;
--> statement-breakpoint
ALTER TABLE onboarding_tasks ADD PRIMARY KEY (hospital_id, id);
