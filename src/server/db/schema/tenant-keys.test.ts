import { is } from 'drizzle-orm'
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core'
import { describe, expect, it } from 'vitest'
import { schema } from '../client'

/**
 * Platform tables: not keyed by hospital (users belong to one but sign in before any tenant is
 * known; the security log spans hospitals; the job queue is claimed across hospitals; meta_pages
 * routes a Meta page to its hospital before any tenant is known, and messaging_routes a WhatsApp
 * phone number id, docs/decisions/025). Every
 * other table with a hospital_id is a tenant table and must be shaped for sharding by hospital
 * (Citus): hospital_id leads its primary key and every foreign key (ENGINEERING.md, "Data and
 * tenants").
 */
const PLATFORM_TABLES = new Set([
  'users',
  'hospitals',
  'security_events',
  'jobs',
  'meta_pages',
  'messaging_routes',
  // Issue 27: the Super Admin Dashboard's platform audit trail (onboarding_tasks is keyed by
  // hospital since issue 39, migration 0040).
  'platform_audit_events',
  // Issue 27: support access the hospital grants, and the super admin sessions under it.
  'support_access_grants',
  'support_sessions',
])

const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable =>
  is(value, PgTable),
)

describe('tenant tables are keyed by hospital first', () => {
  const tenant = tables
    .map((table) => getTableConfig(table))
    .filter((t) => t.columns.some((c) => c.name === 'hospital_id') && !PLATFORM_TABLES.has(t.name))

  it('finds the tenant tables', () => {
    expect(tenant.map((t) => t.name)).toEqual(expect.arrayContaining(['patients', 'audit_events']))
  })

  it.each(tenant.map((t) => [t.name, t] as const))(
    '%s: hospital_id leads the primary key and every foreign key',
    (_name, config) => {
      const primary =
        config.primaryKeys[0]?.columns.map((c) => c.name) ??
        config.columns.filter((c) => c.primary).map((c) => c.name)
      expect(primary[0]).toBe('hospital_id')
      for (const fk of config.foreignKeys) {
        const ref = fk.reference()
        expect(
          ref.columns[0]?.name,
          `${config.name} -> ${getTableConfig(ref.foreignTable).name}`,
        ).toBe('hospital_id')
      }
    },
  )
})
