-- Issue 30, docs/decisions/022: invalid states made unrepresentable. CHECK constraints on the
-- enum-like text columns (the lists in src/shared/roles.ts, plans.ts and schemas/*.ts, mirrored
-- by check(...) in src/server/db/schema/*.ts; tests/integration/constraints.api.test.ts keeps
-- them equal) and on the lead state machine (converted exactly when it points at a patient).
-- Hand-written.
--
-- Existing rows are checked first: if any would violate a constraint, the migration refuses to
-- apply (its one transaction rolls back, nothing changes) and names the table, the column, the
-- values and up to five row ids of each, e.g.
--   users.role has values not allowed: 'Admin' (2 rows, ids 3fa…, 9bc…)
-- Values of patient data (the ABHA number) are not shown, only the ids.
--
-- Forced RLS applies to the table owner too, and migrations run as the owner
-- (DATABASE_MIGRATION_URL), which is no superuser in production: the check would see no
-- tenant rows. FORCE is lifted inside this transaction (which holds the tables' locks) and
-- restored below, as 0005 does.
ALTER TABLE patients NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE leads NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE communications NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
DO $migration$
DECLARE
  -- table, what the message calls the column, constraint, check, the value shown, row id
  checks text[] := ARRAY[
    ['users', 'role', 'users_role_check',
     $c$role IN ('super_admin', 'admin', 'doctor', 'nurse', 'receptionist', 'viewer')$c$,
     'quote_literal(role)', 'id'],
    ['hospitals', 'plan', 'hospitals_plan_check',
     $c$plan IN ('starter', 'professional', 'enterprise', 'hospital_enterprise', 'custom_enterprise')$c$,
     'quote_literal(plan)', 'id'],
    ['hospitals', 'subscription_status', 'hospitals_subscription_status_check',
     $c$subscription_status IN ('active', 'trial', 'cancelled', 'past_due')$c$,
     'quote_literal(subscription_status)', 'id'],
    ['hospitals', 'hospital_type', 'hospitals_hospital_type_check',
     $c$hospital_type IN ('general', 'specialty', 'clinic', 'diagnostic_center')$c$,
     'quote_literal(hospital_type)', 'id'],
    ['hospitals', 'currency', 'hospitals_currency_check',
     $c$currency ~ '^[A-Z]{3}$'$c$,
     'quote_literal(currency)', 'id'],
    ['demo_requests', 'preferred_time', 'demo_requests_preferred_time_check',
     $c$preferred_time IN ('any', 'morning', 'afternoon', 'evening')$c$,
     'quote_literal(preferred_time)', 'id'],
    ['demo_requests', 'source', 'demo_requests_source_check',
     $c$source IN ('landing', 'pricing', 'add-ons')$c$,
     'quote_literal(source)', 'id'],
    ['patients', 'gender', 'patients_gender_check',
     $c$gender IN ('male', 'female', 'other', 'prefer_not_to_say')$c$,
     'quote_literal(gender)', 'id'],
    ['patients', 'abha_number', 'patients_abha_number_check',
     $c$abha_number ~ '^[0-9]{2}-[0-9]{4}-[0-9]{4}-[0-9]{4}$'$c$,
     $v$'(not shown: patient data)'$v$, 'id'],
    ['leads', 'status', 'leads_status_check',
     $c$status IN ('new', 'contacted', 'follow-up', 'converted', 'rejected')$c$,
     'quote_literal(status)', 'id'],
    ['leads', 'source', 'leads_source_check',
     $c$source IN ('meta-facebook', 'meta-instagram', 'google-ads', 'referral', 'manual', 'walk-in', 'csv-import')$c$,
     'quote_literal(source)', 'id'],
    ['leads', 'priority', 'leads_priority_check',
     $c$priority IN ('high', 'medium', 'low')$c$,
     'quote_literal(priority)', 'id'],
    ['leads', 'status/patient_id', 'leads_converted_patient_check',
     $c$(status = 'converted') = (patient_id IS NOT NULL)$c$,
     $v$quote_literal(status) || CASE WHEN patient_id IS NULL THEN ' without a patient' ELSE ' with a patient' END$v$,
     'id'],
    ['communications', 'type', 'communications_type_check',
     $c$type IN ('email', 'phone', 'call', 'whatsapp', 'sms', 'system')$c$,
     'quote_literal(type)', 'id'],
    ['communications', 'direction', 'communications_direction_check',
     $c$direction IN ('inbound', 'outbound')$c$,
     'quote_literal(direction)', 'id'],
    ['communications', 'status', 'communications_status_check',
     $c$status IN ('sent', 'delivered', 'read', 'failed', 'received', 'logged')$c$,
     'quote_literal(status)', 'id']
  ];
  found text;
  problems text[] := ARRAY[]::text[];
BEGIN
  FOR i IN 1 .. array_length(checks, 1) LOOP
    -- Rows for which the check is false (NULL passes a CHECK, as it does here), grouped by
    -- the value shown, with how many and the first five ids of each.
    EXECUTE format(
      $q$SELECT string_agg(v || ' (' || n || CASE WHEN n = 1 THEN ' row, id ' ELSE ' rows, ids ' END
                || ids || CASE WHEN n > 5 THEN ', ...' ELSE '' END || ')', ', ' ORDER BY v)
         FROM (SELECT %s AS v, count(*) AS n,
                      array_to_string((array_agg(%I::text ORDER BY %I::text))[1:5], ', ') AS ids
               FROM %I WHERE (%s) IS FALSE GROUP BY 1) AS bad$q$,
      checks[i][5], checks[i][6], checks[i][6], checks[i][1], checks[i][4])
    INTO found;
    IF found IS NOT NULL THEN
      problems := problems || format('%s.%s has values not allowed: %s', checks[i][1], checks[i][2], found);
    END IF;
  END LOOP;
  IF cardinality(problems) > 0 THEN
    RAISE EXCEPTION 'Migration 0015_constraints refused, nothing was changed: %', array_to_string(problems, '; ')
      USING ERRCODE = 'check_violation',
            HINT = 'Correct or remove these rows, then start again (docs/decisions/022-constraints-and-listener.md).';
  END IF;
  FOR i IN 1 .. array_length(checks, 1) LOOP
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (%s)', checks[i][1], checks[i][3], checks[i][4]);
  END LOOP;
END
$migration$;
--> statement-breakpoint
ALTER TABLE patients FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE leads FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE communications FORCE ROW LEVEL SECURITY;
