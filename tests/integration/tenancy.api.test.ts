import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppDb, Tx } from '../../src/server/db/client'
import { withTenant } from '../../src/server/db/tenant'
import { createTestApp, hospitalIdOf, queryRows, type TestApp } from '../support/test-app'

/**
 * Platform tables: read before any tenant is known (sign-in) or by the super admin, so
 * not under row-level security. Every other table with a hospital_id column must be. `jobs` is
 * claimed across hospitals by the worker (its own policies: app_user inserts and reads its
 * hospital's rows only; docs/decisions/014). `meta_pages` routes a Meta page to its hospital for
 * the public webhook (app_user sees its own row only; docs/decisions/016); `messaging_routes` does
 * the same for WhatsApp's phone number ids (docs/decisions/025).
 */
const PLATFORM_TABLES = [
  'users',
  'hospitals',
  'security_events',
  'jobs',
  'meta_pages',
  'messaging_routes',
  // Issue 27: the Super Admin Dashboard's onboarding tasks and platform audit trail.
  'onboarding_tasks',
  'platform_audit_events',
  // Issue 27: support access the hospital grants, and the super admin sessions under it.
  'support_access_grants',
  'support_sessions',
] as const

let t: TestApp
let a: string
let b: string
let countA: number

beforeAll(async () => {
  t = await createTestApp()
  a = await hospitalIdOf(t.db, 'sanjeevani')
  b = await hospitalIdOf(t.db, 'smiledental')
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from patients where hospital_id = ${a}`,
  )
  countA = row?.n ?? -1
})
afterAll(async () => {
  await t?.close()
})

async function txRows<T>(tx: Tx, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows
}

/** The error a statement raises, with its cause's message (drizzle wraps driver errors). */
async function failure(run: () => Promise<unknown>): Promise<string> {
  try {
    await run()
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause
    return `${String(error)} ${cause ? String((cause as Error).message ?? cause) : ''}`
  }
  throw new Error('expected the statement to fail')
}

/** A transaction as app_user with no tenant set, as a forgotten withTenant would run. */
function asAppUserWithoutTenant<T>(db: AppDb, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local role app_user`)
    return fn(tx as Tx)
  })
}

interface TableSecurity {
  name: string
  rls: boolean
  forced: boolean
  policies: string[]
}

/** Every public table with a hospital_id column, with its RLS flags and policy expressions. */
function tablesWithHospitalId(): Promise<TableSecurity[]> {
  return queryRows<TableSecurity>(
    t.db,
    sql`select c.relname as name, c.relrowsecurity as rls, c.relforcerowsecurity as forced,
               coalesce(array_agg(pg_get_expr(p.polqual, p.polrelid) || ' | ' ||
                 coalesce(pg_get_expr(p.polwithcheck, p.polrelid), '')) filter (where p.oid is not null), '{}') as policies
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        left join pg_policy p on p.polrelid = c.oid
        where n.nspname = 'public' and c.relkind in ('r', 'p')
          and exists (select 1 from pg_attribute at
                      where at.attrelid = c.oid and at.attname = 'hospital_id' and not at.attisdropped)
        group by c.relname, c.relrowsecurity, c.relforcerowsecurity
        order by c.relname`,
  )
}

/** Tenant tables (all but the platform allowlist) missing forced RLS or a tenant policy. */
async function unguardedTenantTables(): Promise<string[]> {
  const tables = await tablesWithHospitalId()
  return tables
    .filter((x) => !(PLATFORM_TABLES as readonly string[]).includes(x.name))
    .filter(
      (x) =>
        !x.rls ||
        !x.forced ||
        x.policies.length === 0 ||
        !x.policies.every((p) => /current_setting\('app\.hospital_id'/.test(p)) ||
        !x.policies.every(isInitPlanPolicy),
    )
    .map((x) => x.name)
}

/**
 * The policy reads the tenant through a scalar subquery, `hospital_id = (select nullif(...))`,
 * in USING and in WITH CHECK: an InitPlan, evaluated once per statement, not once per row.
 */
function isInitPlanPolicy(policy: string): boolean {
  const initPlan =
    /^\(hospital_id = \( SELECT \(NULLIF\(current_setting\('app\.hospital_id'::text, true\), ''::text\)\)::uuid AS "nullif"\)\)$/
  const [using, check] = policy.split(' | ')
  return initPlan.test(using ?? '') && initPlan.test(check ?? '')
}

describe('catalog', () => {
  it('forces row-level security with a tenant policy on every table with a hospital_id', async () => {
    const names = (await tablesWithHospitalId()).map((x) => x.name)
    expect(names).toEqual(expect.arrayContaining(['audit_events', 'patients']))
    expect(await unguardedTenantTables()).toEqual([])
  })

  it('would catch a new tenant table without forced RLS and a policy', async () => {
    await t.db.execute(sql`create table zz_unguarded (hospital_id uuid not null, id uuid not null)`)
    try {
      expect(await unguardedTenantTables()).toEqual(['zz_unguarded'])
      await t.db.execute(sql`alter table zz_unguarded enable row level security`)
      await t.db.execute(sql`alter table zz_unguarded force row level security`)
      expect(await unguardedTenantTables()).toEqual(['zz_unguarded'])
      await t.db.execute(sql`create policy p on zz_unguarded using (true)`)
      expect(await unguardedTenantTables()).toEqual(['zz_unguarded'])
    } finally {
      await t.db.execute(sql`drop table zz_unguarded`)
    }
    expect(await unguardedTenantTables()).toEqual([])
  })

  it('keeps the platform allowlist honest: those tables exist', async () => {
    const rows = await queryRows<{ name: string }>(
      t.db,
      sql`select tablename as name from pg_tables where schemaname = 'public' and tablename in ('users', 'hospitals', 'security_events', 'jobs', 'meta_pages', 'messaging_routes', 'onboarding_tasks', 'platform_audit_events', 'support_access_grants', 'support_sessions')`,
    )
    expect(rows.map((r) => r.name).sort()).toEqual([...PLATFORM_TABLES].sort())
  })

  it('has app_user: no superuser, no BYPASSRLS, no login, owning nothing', async () => {
    const [role] = await queryRows<Record<string, boolean>>(
      t.db,
      sql`select rolsuper, rolbypassrls, rolcanlogin, rolcreaterole, rolcreatedb from pg_roles where rolname = 'app_user'`,
    )
    expect(role).toEqual({
      rolsuper: false,
      rolbypassrls: false,
      rolcanlogin: false,
      rolcreaterole: false,
      rolcreatedb: false,
    })
    const [owned] = await queryRows<{ relations: number; schemas: number; functions: number }>(
      t.db,
      sql`select (select count(*)::int from pg_class where relowner = r.oid) as relations,
                 (select count(*)::int from pg_namespace where nspowner = r.oid) as schemas,
                 (select count(*)::int from pg_proc where proowner = r.oid) as functions
          from pg_roles r where r.rolname = 'app_user'`,
    )
    expect(owned).toEqual({ relations: 0, schemas: 0, functions: 0 })
  })

  it('does not let app_user read credentials or sessions', async () => {
    for (const table of ['accounts', 'sessions', 'two_factors', 'verifications']) {
      const [row] = await queryRows<{ ok: boolean }>(
        t.db,
        sql`select has_table_privilege('app_user', ${table}, 'SELECT') as ok`,
      )
      expect(row?.ok, table).toBe(false)
    }
  })

  it('has no SECURITY DEFINER functions and only security_invoker views in public', async () => {
    const definers = await queryRows(
      t.db,
      sql`select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = 'public' and p.prosecdef`,
    )
    expect(definers).toEqual([])
    const views = await queryRows<{ name: string; options: string[] | null }>(
      t.db,
      sql`select c.relname as name, c.reloptions as options from pg_class c
          join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'v'`,
    )
    for (const view of views)
      expect(view.options ?? [], view.name).toContain('security_invoker=true')
  })
})

describe('withTenant', () => {
  it('runs as app_user and sees only its own hospital’s rows', async () => {
    const seen = await withTenant(t.db, { hospitalId: a, userId: null }, async (tx) => ({
      who: await txRows<{ u: string }>(tx, sql`select current_user as u`),
      all: await txRows<{ n: number }>(tx, sql`select count(*)::int as n from patients`),
      other: await txRows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from patients where hospital_id = ${b}`,
      ),
      hospitals: await txRows<{ h: string }>(
        tx,
        sql`select distinct hospital_id::text as h from patients`,
      ),
    }))
    expect(seen.who[0]?.u).toBe('app_user')
    expect(countA).toBeGreaterThan(0)
    expect(seen.all[0]?.n).toBe(countA)
    expect(seen.other[0]?.n).toBe(0)
    expect(seen.hospitals.map((r) => r.h)).toEqual([a])
  })

  it('refuses to insert a row for another hospital, or move a row there', async () => {
    const insert = await failure(() =>
      withTenant(t.db, { hospitalId: a, userId: null }, (tx) =>
        tx.execute(
          sql`insert into patients (hospital_id, name, phone) values (${b}, 'Smuggled', '+919876543210')`,
        ),
      ),
    )
    expect(insert).toMatch(/row-level security/)
    const move = await failure(() =>
      withTenant(t.db, { hospitalId: a, userId: null }, (tx) =>
        tx.execute(sql`update patients set hospital_id = ${b}`),
      ),
    )
    expect(move).toMatch(/row-level security/)
    const [rows] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from patients where name = 'Smuggled' or hospital_id = ${a}`,
    )
    expect(rows?.n).toBe(countA)
  })

  it('cannot change or delete another hospital’s rows', async () => {
    const before = await queryRows(
      t.db,
      sql`select * from patients where hospital_id = ${b} order by id`,
    )
    const changed = await withTenant(t.db, { hospitalId: a, userId: null }, async (tx) => ({
      updated: await txRows(
        tx,
        sql`update patients set name = 'Hijacked' where hospital_id = ${b} returning id`,
      ),
      deleted: await txRows(tx, sql`delete from patients where hospital_id = ${b} returning id`),
    }))
    expect(changed).toEqual({ updated: [], deleted: [] })
    // Audit rows cannot be deleted at all (append-only), let alone another hospital's.
    const error = await failure(() =>
      withTenant(t.db, { hospitalId: a, userId: null }, (tx) =>
        tx.execute(sql`delete from audit_events where hospital_id = ${b}`),
      ),
    )
    expect(error).toMatch(/permission denied/)
    expect(
      await queryRows(t.db, sql`select * from patients where hospital_id = ${b} order by id`),
    ).toEqual(before)
  })

  it('cannot switch RLS off for itself', async () => {
    const error = await failure(() =>
      withTenant(t.db, { hospitalId: a, userId: null }, (tx) =>
        tx.execute(sql`alter table patients no force row level security`),
      ),
    )
    expect(error).toMatch(/must be (the )?owner|permission denied/)
  })
})

describe('policies as InitPlans', () => {
  it('write every tenant policy as a subselect of the setting', async () => {
    const tenant = (await tablesWithHospitalId()).filter(
      (x) => !(PLATFORM_TABLES as readonly string[]).includes(x.name),
    )
    expect(tenant.map((x) => x.name)).toEqual(
      expect.arrayContaining([
        'audit_events',
        'communications',
        'lead_settings',
        'leads',
        'patient_number_counters',
        'patients',
      ]),
    )
    for (const table of tenant) {
      expect(table.policies.length, table.name).toBeGreaterThan(0)
      for (const policy of table.policies) expect(isInitPlanPolicy(policy), policy).toBe(true)
    }
    expect(
      isInitPlanPolicy(
        "(hospital_id = (NULLIF(current_setting('app.hospital_id'::text, true), ''::text))::uuid) | (hospital_id = (NULLIF(current_setting('app.hospital_id'::text, true), ''::text))::uuid)",
      ),
    ).toBe(false)
  })

  it('read the tenant once per statement: the plan has an InitPlan', async () => {
    const plan = await withTenant(t.db, { hospitalId: a, userId: null }, async (tx) =>
      (await txRows<{ 'QUERY PLAN': string }>(tx, sql`explain select * from patients`)).map(
        (r) => r['QUERY PLAN'],
      ),
    )
    const text = plan.join('\n')
    expect(text).toMatch(/InitPlan 1/)
    // current_setting appears in the InitPlan's output only, not in a per-row filter.
    expect(
      plan.filter((line) => /current_setting/.test(line) && !/InitPlan|Output|Result/.test(line)),
    ).toEqual([])
  })
})

describe('patient search under RLS', () => {
  it('is an index range: starts_with (^@) is LEAKPROOF without superuser', async () => {
    const [fn] = await queryRows<{ leak: boolean }>(
      t.db,
      sql`select proleakproof as leak from pg_proc where proname = 'starts_with'`,
    )
    expect(fn?.leak).toBe(true)
    await t.db.execute(sql`analyze patients`)
    const plan = await withTenant(t.db, { hospitalId: a, userId: null }, async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`)
      const rows = await txRows<{ 'QUERY PLAN': string }>(
        tx,
        sql`explain select id from patients where name_search_2 ^@ lower(${'Sharma'})`,
      )
      return rows.map((r) => r['QUERY PLAN']).join('\n')
    })
    expect(plan).toMatch(
      /Index Cond: .*name_search_2 ~>=~ 'sharma'::text.*name_search_2 ~<~ 'sharmb'::text/,
    )
  })

  it('ILIKE and LIKE stay leakproof where 0003 could mark them (no search uses them now)', async () => {
    const fns = await queryRows<{ name: string; leak: boolean }>(
      t.db,
      sql`select proname as name, proleakproof as leak from pg_proc where proname in ('texticlike', 'textlike')`,
    )
    expect(fns.map((f) => f.leak)).toEqual([true, true])
  })
})

describe('app_user without a tenant', () => {
  it('sees no rows and cannot write any', async () => {
    const rows = await asAppUserWithoutTenant(t.db, async (tx) => ({
      patients: await txRows<{ n: number }>(tx, sql`select count(*)::int as n from patients`),
      audit: await txRows<{ n: number }>(tx, sql`select count(*)::int as n from audit_events`),
    }))
    expect(rows.patients[0]?.n).toBe(0)
    expect(rows.audit[0]?.n).toBe(0)
    const insert = await failure(() =>
      asAppUserWithoutTenant(t.db, (tx) =>
        tx.execute(
          sql`insert into patients (hospital_id, name, phone) values (${a}, 'No Tenant', '+919876543210')`,
        ),
      ),
    )
    expect(insert).toMatch(/row-level security/)
  })

  it('does not inherit the tenant of an earlier transaction on the same connection', async () => {
    for (let i = 0; i < 3; i++) {
      await withTenant(t.db, { hospitalId: a, userId: null }, (tx) => tx.execute(sql`select 1`))
      const after = await asAppUserWithoutTenant(t.db, (tx) =>
        txRows<{ n: number; setting: string | null }>(
          tx,
          sql`select count(*)::int as n, current_setting('app.hospital_id', true) as setting from patients`,
        ),
      )
      expect(after[0]?.n).toBe(0)
      expect(after[0]?.setting ?? '').toBe('')
    }
    const [who] = await queryRows<{ u: string }>(t.db, sql`select current_user as u`)
    expect(who?.u).not.toBe('app_user')
  })
})
