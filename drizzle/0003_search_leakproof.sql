-- Patient search under row-level security.
-- With RLS on, PostgreSQL uses a WHERE condition as an index condition only when its
-- function is LEAKPROOF; otherwise the condition is applied after the policy, row by row,
-- and the trigram indexes from 0001 are never used (every search read the whole hospital).
-- texticlike/textlike (ILIKE/LIKE on text) can fail only on a malformed pattern (the
-- caller's own input), never in a way that reveals a row's contents, so marking them
-- LEAKPROOF keeps tenant isolation intact. Needs superuser: on a managed PostgreSQL where
-- the app's role is not one, the statement is skipped with a notice and search falls
-- back to a scan within the tenant (still correct, just slower). See docs/decisions/004.
DO $$
BEGIN
  ALTER FUNCTION texticlike(text, text) LEAKPROOF;
  ALTER FUNCTION textlike(text, text) LEAKPROOF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'not superuser: ILIKE/LIKE left non-leakproof; patient search will not use trigram indexes';
END $$;
