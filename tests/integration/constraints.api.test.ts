import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core'
import { sql, type SQL } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppDb } from '../../src/server/db/client'
import { applyMigrations, MIGRATIONS_FOLDER } from '../../src/server/db/migrate'
import { user } from '../../src/server/db/schema/auth'
import { demoRequests } from '../../src/server/db/schema/demo-requests'
import {
  hospitals,
  hospitalTypes,
  subscriptionStatuses,
} from '../../src/server/db/schema/hospitals'
import { communications, leads } from '../../src/server/db/schema/leads'
import { patients } from '../../src/server/db/schema/patients'
import { planIds } from '../../src/shared/plans'
import { roles } from '../../src/shared/roles'
import { demoRequestSources, preferredTimes } from '../../src/shared/schemas/demo-requests'
import {
  communicationDirections,
  communicationStatuses,
  communicationTypes,
  leadPriorities,
  leadSources,
  leadStatuses,
} from '../../src/shared/schemas/leads'
import { genders } from '../../src/shared/schemas/patients'
import {
  consentActions,
  consentMethods,
  emailProviders,
  messageChannels,
  providerNames,
  reminderStatuses,
  reminderTypes,
  smsProviders,
  templateApprovalStatuses,
  templateCategories,
  whatsappProviders,
} from '../../src/shared/messaging'
import {
  consentRecords,
  messageBatches,
  messageTemplates,
  messagingConnections,
  notificationSettings,
  reminders,
} from '../../src/server/db/schema/messaging'
import { appointments, bookingHolds, services } from '../../src/server/db/schema/appointments'
import {
  invoiceCounters,
  invoiceLines,
  invoices,
  payments,
} from '../../src/server/db/schema/billing'
import { invoiceKinds, invoiceStatuses, recordedPaymentMethods } from '../../src/shared/billing'
import {
  appointmentSources,
  appointmentStatuses,
  bookingCodeChannels,
} from '../../src/shared/scheduling'
import { createTestApp, hospitalIdOf, queryRows, type TestApp } from '../support/test-app'

// Issue 30: invalid states are unrepresentable (migration 0015, docs/decisions/022). The
// database's CHECK constraints, the drizzle schema's check(...) and the lists in src/shared
// are one list each; every constraint refuses a value outside it; and the migration refuses
// to apply to a database whose rows already break one, naming them.

/** Each list-valued constraint and the list in code it must equal. */
const lists: Record<string, { table: PgTable; values: readonly string[] }> = {
  users_role_check: { table: user, values: roles },
  hospitals_plan_check: { table: hospitals, values: planIds },
  hospitals_subscription_status_check: { table: hospitals, values: subscriptionStatuses },
  hospitals_hospital_type_check: { table: hospitals, values: hospitalTypes },
  demo_requests_preferred_time_check: { table: demoRequests, values: preferredTimes },
  demo_requests_source_check: { table: demoRequests, values: demoRequestSources },
  patients_gender_check: { table: patients, values: genders },
  leads_status_check: { table: leads, values: leadStatuses },
  leads_source_check: { table: leads, values: leadSources },
  leads_priority_check: { table: leads, values: leadPriorities },
  communications_type_check: { table: communications, values: communicationTypes },
  communications_direction_check: { table: communications, values: communicationDirections },
  communications_status_check: { table: communications, values: communicationStatuses },
  communications_provider_check: { table: communications, values: providerNames },
  messaging_connections_whatsapp_check: { table: messagingConnections, values: whatsappProviders },
  messaging_connections_sms_check: { table: messagingConnections, values: smsProviders },
  messaging_connections_email_check: { table: messagingConnections, values: emailProviders },
  message_templates_channel_check: { table: messageTemplates, values: messageChannels },
  message_templates_category_check: { table: messageTemplates, values: templateCategories },
  message_templates_approval_check: { table: messageTemplates, values: templateApprovalStatuses },
  message_batches_channel_check: { table: messageBatches, values: messageChannels },
  consent_records_channel_check: { table: consentRecords, values: messageChannels },
  consent_records_action_check: { table: consentRecords, values: consentActions },
  consent_records_method_check: { table: consentRecords, values: consentMethods },
  reminders_type_check: { table: reminders, values: reminderTypes },
  reminders_status_check: { table: reminders, values: reminderStatuses },
  reminders_channel_check: { table: reminders, values: messageChannels },
  appointments_status_check: { table: appointments, values: appointmentStatuses },
  appointments_source_check: { table: appointments, values: appointmentSources },
  booking_holds_channel_check: { table: bookingHolds, values: bookingCodeChannels },
  invoices_status_check: { table: invoices, values: invoiceStatuses },
  invoices_kind_check: { table: invoices, values: invoiceKinds },
  payments_method_check: { table: payments, values: recordedPaymentMethods },
}
/** Constraints that are rules rather than lists. */
const rules = [
  'hospitals_currency_check',
  'patients_abha_number_check',
  'leads_converted_patient_check',
  'communications_subject_check',
  'notification_settings_quiet_check',
  'reminders_subject_check',
  'hospitals_slug_check',
  'hospitals_gstin_check',
  'hospitals_state_code_check',
  'hospitals_upi_id_check',
  'hospitals_invoice_prefix_check',
  'services_name_check',
  'services_price_check',
  'services_gst_rate_check',
  'services_duration_check',
  'appointments_duration_check',
  'appointments_ends_check',
  'appointments_service_type_check',
  'booking_holds_attempts_check',
  'booking_holds_range_check',
  'invoice_counters_year_check',
  'invoices_amounts_check',
  'invoices_due_check',
  'invoices_cancel_check',
  'invoices_year_check',
  'invoice_lines_quantity_check',
  'invoice_lines_price_check',
  'invoice_lines_discount_check',
  'invoice_lines_gst_rate_check',
  'invoice_lines_name_check',
  'payments_amount_check',
]
const tables = [
  'users',
  'hospitals',
  'demo_requests',
  'patients',
  'leads',
  'communications',
  'messaging_connections',
  'message_templates',
  'message_batches',
  'consent_records',
  'notification_settings',
  'reminders',
  'services',
  'appointments',
  'booking_holds',
  'invoice_counters',
  'invoices',
  'invoice_lines',
  'payments',
]

/** The quoted strings of a constraint's text: its list of allowed values. */
function quoted(text: string): string[] {
  return [...text.matchAll(/'([^']*)'/g)].map((m) => m[1] ?? '').sort()
}

/** The SQL text of a drizzle check(...) (its chunks are plain strings). */
function checkText(value: SQL): string {
  return value.queryChunks
    .map((c) => (typeof c === 'string' ? c : ((c as { value?: string[] }).value ?? []).join('')))
    .join('')
}

describe('the constraints', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => {
    await t?.close()
  })

  it('are the lists of the code, in the database and in the drizzle schema alike', async () => {
    const found = await queryRows<{ name: string; table: string; def: string }>(
      t.db,
      sql`select c.conname as name, r.relname as "table", pg_get_constraintdef(c.oid) as def
          from pg_constraint c join pg_class r on r.oid = c.conrelid
          where c.contype = 'c' and r.relname in ${tables} and r.relnamespace = 'public'::regnamespace`,
    )
    expect(found.map((f) => f.name).sort()).toEqual([...Object.keys(lists), ...rules].sort())
    for (const [name, { table, values }] of Object.entries(lists)) {
      const def = found.find((f) => f.name === name)?.def ?? ''
      expect(quoted(def), name).toEqual([...values].sort())
      const check = getTableConfig(table).checks.find((c) => c.name === name)
      expect(check, `${name} in the drizzle schema`).toBeDefined()
      expect(quoted(checkText(check?.value as SQL)), name).toEqual([...values].sort())
    }
    for (const name of rules) {
      const inSchema = [
        hospitals,
        patients,
        leads,
        communications,
        notificationSettings,
        reminders,
        services,
        appointments,
        bookingHolds,
        invoiceCounters,
        invoices,
        invoiceLines,
        payments,
      ].some((table) => getTableConfig(table).checks.some((c) => c.name === name))
      expect(inSchema, `${name} in the drizzle schema`).toBe(true)
    }
  })

  const rolledBack = new Error('rolled back')

  /**
   * The SQLSTATE with which the database refuses a statement (23514: a CHECK), read through
   * drizzle's wrapper; undefined when it is accepted. Rolled back either way.
   */
  async function refusal(statement: SQL): Promise<string | undefined> {
    try {
      await t.db.transaction(async (tx) => {
        await tx.execute(statement)
        throw rolledBack
      })
    } catch (error) {
      if (error === rolledBack) return undefined
      const e = error as { code?: string; cause?: { code?: string } }
      return e.cause?.code ?? e.code
    }
    return 'not run'
  }

  it('refuse a value outside the list, and a state the lead machine forbids', async () => {
    const hospital = await hospitalIdOf(t.db, 'sanjeevani')
    await t.db.execute(
      sql`insert into demo_requests (name, organization, mobile) values ('A', 'B', '+919876543210')`,
    )
    const one = async (table: string) => {
      const [row] = await queryRows<{ id: string }>(
        t.db,
        sql`select id::text from ${sql.identifier(table)} order by id limit 1`,
      )
      return row?.id ?? ''
    }
    const cases: [string, string, string][] = [
      ['users', 'role', 'Admin'],
      ['users', 'role', 'superadmin'],
      ['hospitals', 'plan', 'gold'],
      ['hospitals', 'subscription_status', 'paused'],
      ['hospitals', 'hospital_type', 'spa'],
      ['hospitals', 'currency', 'inr'],
      ['demo_requests', 'preferred_time', 'night'],
      ['demo_requests', 'source', 'ads'],
      ['patients', 'gender', 'M'],
      ['patients', 'abha_number', '12345678901234'],
      ['patients', 'abha_number', '12-3456-7890-12345'],
      ['leads', 'status', 'won'],
      ['leads', 'source', 'tv'],
      ['leads', 'priority', 'urgent'],
      ['communications', 'type', 'fax'],
      ['communications', 'direction', 'sideways'],
      ['communications', 'status', 'lost'],
    ]
    for (const [table, column, value] of cases) {
      const id = await one(table)
      const code = await refusal(
        sql`update ${sql.identifier(table)} set ${sql.identifier(column)} = ${value} where id::text = ${id}`,
      )
      expect(code, `${table}.${column} = ${value}`).toBe('23514')
    }
    // Converted exactly when it points at a patient: neither half alone.
    const [open] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from leads where hospital_id = ${hospital} and status = 'new' limit 1`,
    )
    const [done] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from leads where hospital_id = ${hospital} and status = 'converted' limit 1`,
    )
    const [patient] = await queryRows<{ id: string }>(
      t.db,
      sql`select id from patients where hospital_id = ${hospital} limit 1`,
    )
    expect(await refusal(sql`update leads set status = 'converted' where id = ${open?.id}`)).toBe(
      '23514',
    )
    expect(
      await refusal(sql`update leads set patient_id = ${patient?.id} where id = ${open?.id}`),
    ).toBe('23514')
    expect(await refusal(sql`update leads set status = 'new' where id = ${done?.id}`)).toBe('23514')
    expect(await refusal(sql`update leads set patient_id = null where id = ${done?.id}`)).toBe(
      '23514',
    )
    // NULL stays allowed where the column is optional.
    expect(await refusal(sql`update patients set gender = null, abha_number = null`)).toBe(
      undefined,
    )
  })
})

// ---------------------------------------------------------------------------------------------
// The migration on a database that already holds rows it would forbid.

const MIGRATION = '0015_constraints'
const serverUrl = process.env.TEST_DATABASE_URL

/** A copy of drizzle/ that stops before MIGRATION. */
function migrationsBefore(): string {
  const dir = mkdtempSync(join(tmpdir(), 'arogya-migrations-'))
  cpSync(MIGRATIONS_FOLDER, dir, { recursive: true })
  const journalPath = join(dir, 'meta/_journal.json')
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] }
  const at = journal.entries.findIndex((e) => e.tag === MIGRATION)
  expect(at).toBeGreaterThan(0)
  journal.entries = journal.entries.slice(0, at)
  writeFileSync(journalPath, JSON.stringify(journal))
  return dir
}

interface Subject {
  /** As the owner who runs the migrations (no superuser on PostgreSQL, as in production). */
  db: AppDb
  close: () => Promise<void>
}

async function openSubject(): Promise<Subject> {
  if (!serverUrl) {
    // An empty embedded database: openDatabase migrates it, so migrate by hand instead.
    const { PGlite } = await import('@electric-sql/pglite')
    const { embeddedExtensions } = await import('../../src/server/db/client')
    const { drizzle } = await import('drizzle-orm/pglite')
    const client = await PGlite.create({ extensions: embeddedExtensions })
    return { db: drizzle(client) as unknown as AppDb, close: () => client.close() }
  }
  const suffix = `${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const owner = `arogya_owner_${suffix}`
  const name = `arogya_constraints_${suffix}`
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    try {
      await client.query(text)
    } finally {
      await client.end()
    }
  }
  await admin(`do $$ begin
    if not exists (select 1 from pg_roles where rolname = 'app_user') then
      create role app_user nologin nosuperuser nobypassrls; end if;
    if not exists (select 1 from pg_roles where rolname = 'app_platform') then
      create role app_platform nologin nosuperuser nobypassrls; end if;
  end $$`)
  await admin(`create role ${owner} login nosuperuser nobypassrls`)
  await admin(`grant app_user, app_platform to ${owner}`)
  await admin(`create database ${name} owner ${owner}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  url.username = owner
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 })
  return {
    db: drizzlePg(pool) as unknown as AppDb,
    close: async () => {
      await pool.end()
      await admin(`drop database if exists ${name} with (force)`)
      await admin(`drop role if exists ${owner}`)
    },
  }
}

/** Every message along an error's cause chain (drizzle wraps the database's error). */
function messages(error: unknown): string {
  const out: string[] = []
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    const { message, hint } = e as { message?: unknown; hint?: unknown }
    if (typeof message === 'string') out.push(message)
    if (typeof hint === 'string') out.push(hint)
    e = (e as { cause?: unknown }).cause
  }
  return out.join('\n')
}

describe(`migration ${MIGRATION} on rows that break a constraint`, () => {
  let subject: Subject
  let folder: string
  let hospitalId = ''
  const ids = { lead: '', converted: '', patient: '', communication: '' }
  const abha = '99-8877-66'

  /** As the owner, inside one hospital (forced RLS applies to the owner too). */
  async function inHospital<T>(run: (tx: AppDb) => Promise<T>): Promise<T> {
    return subject.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('app.hospital_id', ${hospitalId}, true)`)
      return run(tx as unknown as AppDb)
    })
  }

  beforeAll(async () => {
    folder = migrationsBefore()
    subject = await openSubject()
    await applyMigrations(subject.db, folder)
    const [h] = await queryRows<{ id: string }>(
      subject.db,
      sql`insert into hospitals (name, email, plan) values ('Old Data', 'old@example.com', 'gold') returning id`,
    )
    hospitalId = h?.id ?? ''
    for (let i = 1; i <= 7; i++) {
      await subject.db.execute(
        sql`insert into users (id, name, email, role, hospital_id)
            values (${`bad-user-${i}`}, 'Typo', ${`typo${i}@example.com`}, 'Admin', ${hospitalId})`,
      )
    }
    await subject.db.execute(
      sql`insert into users (id, name, email, role) values ('good-user', 'Fine', 'fine@example.com', 'doctor')`,
    )
    await inHospital(async (tx) => {
      const [p] = await queryRows<{ id: string }>(
        tx,
        sql`insert into patients (hospital_id, name, phone, abha_number)
            values (${hospitalId}, 'Asha Old', '+919876543210', ${abha}) returning id`,
      )
      const [l] = await queryRows<{ id: string }>(
        tx,
        sql`insert into leads (hospital_id, name, phone, source, status)
            values (${hospitalId}, 'Won Lead', '+919876543211', 'manual', 'won') returning id`,
      )
      const [c] = await queryRows<{ id: string }>(
        tx,
        sql`insert into leads (hospital_id, name, phone, source, status)
            values (${hospitalId}, 'Half Converted', '+919876543212', 'manual', 'converted') returning id`,
      )
      const [m] = await queryRows<{ id: string }>(
        tx,
        sql`insert into communications (hospital_id, lead_id, type, direction, content, status)
            values (${hospitalId}, ${l?.id}, 'fax', 'outbound', 'Sent a fax', 'logged') returning id`,
      )
      ids.patient = p?.id ?? ''
      ids.lead = l?.id ?? ''
      ids.converted = c?.id ?? ''
      ids.communication = m?.id ?? ''
    })
  }, 60_000)

  afterAll(async () => {
    await subject?.close()
    if (folder) rmSync(folder, { recursive: true, force: true })
  })

  it('refuses to apply, naming the table, column, values and rows, and changes nothing', async () => {
    let failure: unknown
    try {
      await applyMigrations(subject.db)
    } catch (error) {
      failure = error
    }
    expect(failure).toBeDefined()
    const text = messages(failure)
    expect(text).toContain('Migration 0015_constraints refused, nothing was changed')
    expect(text).toContain(
      "users.role has values not allowed: 'Admin' (7 rows, ids bad-user-1, bad-user-2, bad-user-3, bad-user-4, bad-user-5, ...)",
    )
    expect(text).toContain(
      `hospitals.plan has values not allowed: 'gold' (1 row, id ${hospitalId})`,
    )
    expect(text).toContain(`leads.status has values not allowed: 'won' (1 row, id ${ids.lead})`)
    expect(text).toContain(
      `leads.status/patient_id has values not allowed: 'converted' without a patient (1 row, id ${ids.converted})`,
    )
    expect(text).toContain(
      `communications.type has values not allowed: 'fax' (1 row, id ${ids.communication})`,
    )
    // Patient data is named by row id only.
    expect(text).toContain(
      `patients.abha_number has values not allowed: (not shown: patient data) (1 row, id ${ids.patient})`,
    )
    expect(text).not.toContain(abha)
    expect(text).not.toContain('good-user')
    expect(text).toContain('docs/decisions/022')

    // Nothing applied: no constraint, RLS still forced, the migration not recorded.
    const [state] = await queryRows<{ checks: number; forced: boolean; last: string }>(
      subject.db,
      sql`select (select count(*)::int from pg_constraint where conname = 'users_role_check') as checks,
                 (select relforcerowsecurity from pg_class where relname = 'patients') as forced,
                 (select max(created_at)::text from drizzle.__drizzle_migrations) as last`,
    )
    const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as {
      entries: { when: number }[]
    }
    expect(state).toEqual({
      checks: 0,
      forced: true,
      last: String(journal.entries.at(-1)?.when),
    })
  })

  it('applies once the rows are corrected, and leaves RLS forced', async () => {
    await subject.db.execute(sql`update users set role = 'admin' where role = 'Admin'`)
    await subject.db.execute(sql`update hospitals set plan = 'starter' where id = ${hospitalId}`)
    await inHospital(async (tx) => {
      await tx.execute(sql`update leads set status = 'new' where status in ('won', 'converted')`)
      await tx.execute(sql`update communications set type = 'email'`)
      await tx.execute(sql`update patients set abha_number = null`)
    })
    await applyMigrations(subject.db)
    const [state] = await queryRows<{ checks: number; forced: number }>(
      subject.db,
      sql`select (select count(*)::int from pg_constraint where conname like any (array['users_%_check', 'leads_%_check'])) as checks,
                 (select count(*)::int from pg_class where relforcerowsecurity
                    and relname in ('patients', 'leads', 'communications')) as forced`,
    )
    expect(state).toEqual({ checks: 5, forced: 3 })
  })
})
