import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import { DEFAULT_FOLLOW_UP_DAYS } from '../../../shared/schemas/leads'
import type { Tx } from '../client'
import { user } from '../schema/auth'
import { communications, leadSettings, leads } from '../schema/leads'
import { patientNumberCounters, patients } from '../schema/patients'
import type { DemoHospital } from './demo'
import type { DemoSpec } from './demo-state'
import type { DemoLeads, LeadPatient, LeadStaff } from './leads'

/**
 * A demo hospital's tenant rows: what of them a database has, and adding what it lacks, in
 * the seed's transaction running as app_user for that hospital (RLS applies).
 */

type NewPatient = typeof patients.$inferInsert

export interface TenantState {
  counter: boolean
  patients: boolean
  leads: boolean
  leadSettings: boolean
}

/** Whether its tenant rows are there (filtered by the id too: RLS may not bind the role). */
export async function readTenant(tx: Tx, hospitalId: string): Promise<TenantState> {
  const [counter] = await tx
    .select({ id: patientNumberCounters.hospitalId })
    .from(patientNumberCounters)
    .where(eq(patientNumberCounters.hospitalId, hospitalId))
  const [patient] = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(eq(patients.hospitalId, hospitalId))
    .limit(1)
  const [lead] = await tx
    .select({ id: leads.id })
    .from(leads)
    .where(eq(leads.hospitalId, hospitalId))
    .limit(1)
  const [settings] = await tx
    .select({ id: leadSettings.hospitalId })
    .from(leadSettings)
    .where(eq(leadSettings.hospitalId, hospitalId))
  return { counter: !!counter, patients: !!patient, leads: !!lead, leadSettings: !!settings }
}

export const tenantComplete = (t: TenantState): boolean =>
  t.counter && t.patients && t.leads && t.leadSettings

const LEAD_ROLES = ['admin', 'doctor', 'nurse', 'receptionist']

/** Staff that demo leads are assigned to, per hospital id (a platform read: run it first). */
export async function readStaff(tx: Tx, hospitalIds: string[]): Promise<Map<string, LeadStaff[]>> {
  const byHospital = new Map<string, LeadStaff[]>()
  if (!hospitalIds.length) return byHospital
  const rows = await tx
    .select({ id: user.id, role: user.role, hospitalId: user.hospitalId })
    .from(user)
    .where(
      and(
        inArray(user.hospitalId, hospitalIds),
        inArray(user.role, LEAD_ROLES),
        eq(user.banned, false),
      ),
    )
    .orderBy(asc(user.email))
  for (const { hospitalId, ...staff } of rows)
    if (hospitalId) byHospital.set(hospitalId, [...(byHospital.get(hospitalId) ?? []), staff])
  return byHospital
}

async function readPatients(tx: Tx, hospitalId: string): Promise<LeadPatient[]> {
  return tx
    .select({
      id: patients.id,
      name: patients.name,
      phone: patients.phone,
      email: patients.email,
      gender: patients.gender,
      dateOfBirth: patients.dateOfBirth,
      createdAt: patients.createdAt,
    })
    .from(patients)
    .where(eq(patients.hospitalId, hospitalId))
    .orderBy(asc(patients.createdAt), asc(patients.id))
}

const asLeadPatient = (p: NewPatient & { id: string }): LeadPatient => ({
  id: p.id,
  name: p.name,
  phone: p.phone,
  email: p.email ?? null,
  gender: p.gender ?? null,
  dateOfBirth: p.dateOfBirth ?? null,
  createdAt: p.createdAt as Date,
})

/** Many rows in few statements (PostgreSQL takes at most 65,535 parameters in one). */
async function inChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += 1000) await insert(rows.slice(i, i + 1000))
}

/**
 * Rows in one statement with one parameter, a JSON array, that PostgreSQL turns into rows of
 * the table: a third of the time of a multi-row VALUES with ~10,000 parameters on PGlite
 * (measured on the demo's ~900 communications). RLS and constraints apply as to any insert.
 */
async function insertAsJson(tx: Tx, table: PgTable, rows: readonly Record<string, unknown>[]) {
  if (!rows.length) return
  const columns = Object.entries(getTableColumns(table)).filter(([key]) =>
    rows.some((r) => r[key] !== undefined),
  )
  const json = JSON.stringify(
    rows.map((r) => Object.fromEntries(columns.map(([key, c]) => [c.name, r[key] ?? null]))),
  )
  const names = sql.join(
    columns.map(([, c]) => sql.identifier(c.name)),
    sql`, `,
  )
  await tx.execute(
    sql`insert into ${table} (${names}) select ${names} from json_populate_recordset(null::${table}, ${json}::json)`,
  )
}

/**
 * Adds the patients, leads and lead settings the hospital lacks; true when it added any.
 * Patients go in oldest first, so the numbering trigger follows created_at; when the hospital
 * has patients but no leads (an earlier version's demo), its leads are made around them.
 */
export async function completeTenant(
  tx: Tx,
  spec: DemoSpec,
  h: DemoHospital,
  tenant: TenantState,
  ctx: { hospitalId: string; staff: LeadStaff[]; now: Date },
): Promise<boolean> {
  const { hospitalId, now } = ctx
  const generated = tenant.patients
    ? []
    : spec.patientsFor(h, hospitalId, now).map((p) => ({ ...p, id: crypto.randomUUID() }))
  let plan: DemoLeads | undefined
  if (!tenant.leads) {
    const existing = tenant.patients
      ? await readPatients(tx, hospitalId)
      : generated.map(asLeadPatient)
    plan = spec.leadsFor(h, hospitalId, { patients: existing, staff: ctx.staff, now })
  }
  const time = (p: NewPatient) => (p.createdAt as Date).getTime()
  const newPatients = [...generated, ...(plan?.patients ?? [])].sort((a, b) => time(a) - time(b))
  await inChunks(newPatients, (rows) => tx.insert(patients).values(rows))
  if (plan) {
    await insertAsJson(tx, leads, plan.leads)
    await insertAsJson(tx, communications, plan.communications)
  }
  if (!tenant.leadSettings)
    await tx.insert(leadSettings).values({ hospitalId, followUpDays: DEFAULT_FOLLOW_UP_DAYS })
  return newPatients.length > 0 || !!plan || !tenant.leadSettings
}
