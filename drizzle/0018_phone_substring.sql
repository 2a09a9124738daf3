-- Issue 26: any run of 3 or more digits typed in the patient search matches anywhere in the
-- phone (the last 4 digits of a mobile find the patient), not only its start (decision 011).
--
-- A trigram GIN index over the phone's digits, led by hospital_id (btree_gin), so a search
-- reads only its own hospital's entries: `hospital_id = $0 AND phone_digits LIKE '%4321%'`
-- is one index condition. LIKE (textlike) is LEAKPROOF since 0003, so under forced RLS it
-- may be an index condition; the pattern is the caller's digits only (no wildcard, no escape
-- can reach it), bound as a parameter, with the column on the left (decision 004's rules).
-- As with 011's prefixes, the planner walks the list's order and stops after a page for a
-- common run, and fetches the few matches of a rare run through this index: a page costs
-- about the same whatever the number of matches.
--
-- fastupdate = off: new patients go into the index at once instead of a pending list that
-- every search would scan until the next vacuum (measured: a 50,000-row pending list made a
-- search 20-30 times slower). Inserts pay a few more index pages each.
--
-- btree_gin and pg_trgm are trusted extensions (PostgreSQL 13+): a database owner may create
-- them without superuser. Embedded databases open with both (db/client.ts).
CREATE EXTENSION IF NOT EXISTS btree_gin;
--> statement-breakpoint
CREATE INDEX patients_hospital_phone_digits_trgm_idx ON patients
  USING gin (hospital_id, phone_digits gin_trgm_ops) WITH (fastupdate = off);
--> statement-breakpoint
ANALYZE patients;
