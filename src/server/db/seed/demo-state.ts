import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { insertCredentialUser } from '../../auth/credential-user'
import { splitName } from '../../../shared/names'
import { patientNumberPrefix } from '../../../shared/schemas/patients'
import type { AppDb, Tx } from '../client'
import { account, user } from '../schema/auth'
import { hospitals } from '../schema/hospitals'
import { patientNumberCounters, type patients } from '../schema/patients'
import { withPlatform, withTenant } from '../tenant'
import type { DemoHospital, DemoUser } from './demo'
import { DEMO_SINCE_DAYS } from './demo-shift'
import { completeTenant, readStaff, readTenant, tenantComplete } from './demo-tenant'
import type { DemoLeads, LeadPatient, LeadStaff } from './leads'

/**
 * What of the demo a database has, and what it lacks. "Complete" is read from the demo rows
 * themselves (no marker row): every demo hospital (by its email), every demo account (by
 * email) with a password, and in each demo hospital a patient-number counter, patients, leads
 * and a lead settings row. What is missing is added; what is there is kept (a hospital with
 * patients but no leads, as an earlier version seeded it, gets its leads, once).
 */

/** The demo, as demo.ts defines it (passed in, so that this file does not import it back). */
export interface DemoSpec {
  hospitals: readonly DemoHospital[]
  users: readonly DemoUser[]
  patientsFor: (h: DemoHospital, hospitalId: string, now: Date) => (typeof patients.$inferInsert)[]
  leadsFor: (
    h: DemoHospital,
    hospitalId: string,
    ctx: { patients: readonly LeadPatient[]; staff: readonly LeadStaff[]; now: Date },
  ) => DemoLeads
}

/** The demo cannot be completed without touching rows that are not the demo's. */
export class DemoSeedConflict extends Error {
  constructor(problems: string[]) {
    super(
      `The demo data cannot be completed:\n${problems.map((p) => `  - ${p}`).join('\n')}\n` +
        'Nothing was changed. Remove or rename the accounts named above, or start with ' +
        'SEED_DEMO=false to run without demo data.',
    )
    this.name = 'DemoSeedConflict'
  }
}

interface FoundUser {
  id: string
  hospitalId: string | null
  isSuperAdmin: boolean
  hasPassword: boolean
}

interface PlatformState {
  /** demo hospital key → id (and name) of its row, when there is one. */
  hospitals: Map<string, { id: string; name: string }>
  users: Map<string, FoundUser>
}

async function readPlatform(tx: Tx, spec: DemoSpec): Promise<PlatformState> {
  const { users } = spec
  const hospitalRows = await tx
    .select({ id: hospitals.id, name: hospitals.name, email: hospitals.email })
    .from(hospitals)
    .where(
      inArray(
        hospitals.email,
        spec.hospitals.map((h) => h.email),
      ),
    )
    .orderBy(asc(hospitals.createdAt), asc(hospitals.id))
  const userRows = await tx
    .select({
      email: user.email,
      id: user.id,
      hospitalId: user.hospitalId,
      isSuperAdmin: user.isSuperAdmin,
      // Spelled out: drizzle leaves the outer column unqualified, which the subquery would
      // read as its own accounts.id.
      hasPassword: sql<boolean>`exists (select 1 from accounts a where a.user_id = users.id and a.provider_id = 'credential' and a.password is not null)`,
    })
    .from(user)
    .where(
      inArray(
        user.email,
        users.map((u) => u.email),
      ),
    )
  const found = new Map(userRows.map(({ email, ...u }) => [email, u]))
  const chosen = new Map<string, { id: string; name: string }>()
  for (const h of spec.hospitals) {
    const candidates = hospitalRows.filter((r) => r.email === h.email)
    // Two rows with a demo email: the one the demo staff belong to, else the oldest.
    const staffHospitals = users
      .filter((u) => u.hospitalKey === h.key)
      .map((u) => found.get(u.email)?.hospitalId)
    const row = candidates.find((c) => staffHospitals.includes(c.id)) ?? candidates[0]
    if (row) chosen.set(h.key, { id: row.id, name: row.name })
  }
  return { hospitals: chosen, users: found }
}

/** Demo emails that belong to something other than the demo: these are not touched. */
function conflicts(state: PlatformState, spec: DemoSpec): string[] {
  const problems: string[] = []
  for (const u of spec.users) {
    const found = state.users.get(u.email)
    if (!found) continue
    if (u.isSuperAdmin) {
      if (!found.isSuperAdmin) problems.push(`${u.email} exists but is not a super admin`)
      continue
    }
    const hospital = spec.hospitals.find((h) => h.key === u.hospitalKey)
    const expected = u.hospitalKey ? state.hospitals.get(u.hospitalKey)?.id : undefined
    if (found.hospitalId !== expected)
      problems.push(
        `${u.email} belongs to another hospital (${found.hospitalId ?? 'none'}) than the demo ` +
          `hospital '${hospital?.name ?? ''}' (${expected ?? 'not created yet'})`,
      )
  }
  return problems
}

function platformComplete(state: PlatformState, spec: DemoSpec): boolean {
  return (
    spec.hospitals.every((h) => state.hospitals.has(h.key)) &&
    spec.users.every((u) => state.users.get(u.email)?.hasPassword)
  )
}

/** Read only, without the lock: true when there is nothing for the seed to do. */
export async function demoComplete(db: AppDb, spec: DemoSpec): Promise<boolean> {
  const state = await withPlatform(db, (tx) => readPlatform(tx, spec))
  if (!platformComplete(state, spec) || conflicts(state, spec).length) return false
  for (const { id } of state.hospitals.values()) {
    const tenant = await withTenant(db, { hospitalId: id, userId: null }, (tx) =>
      readTenant(tx, id),
    )
    if (!tenantComplete(tenant)) return false
  }
  return true
}

async function addUser(tx: Tx, u: DemoUser, hospitalId: string | null, hash: string, now: Date) {
  const { firstName, lastName } = splitName(u.name)
  const id = await insertCredentialUser(
    tx,
    {
      email: u.email,
      firstName,
      lastName,
      role: u.role,
      hospitalId,
      isSuperAdmin: u.isSuperAdmin,
      emailVerified: true,
    },
    hash,
  )
  // insertCredentialUser names the user 'first last'; keep the title in the full name. Staff
  // joined on a working morning some months back (their "Joined" date), each on another day.
  const joined =
    u.joinedDaysAgo === undefined
      ? now
      : new Date(
          Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 5) -
            u.joinedDaysAgo * 86_400_000,
        )
  await tx
    .update(user)
    .set({ name: u.name, createdAt: joined, updatedAt: joined })
    .where(eq(user.id, id))
}

async function addPassword(tx: Tx, userId: string, hash: string) {
  await tx
    .delete(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, 'credential')))
  await tx.insert(account).values({
    id: crypto.randomUUID(),
    accountId: userId,
    providerId: 'credential',
    userId,
    password: hash,
  })
}

async function addHospital(tx: Tx, h: DemoHospital, now: Date) {
  const values = {
    name: h.name,
    email: h.email,
    phone: h.phone,
    address: h.address,
    hospitalType: h.hospitalType,
    bedCapacity: h.bedCapacity,
    staffCount: h.staffCount,
    maxUsers: h.maxUsers,
    plan: h.plan,
  }
  // On the platform since before its oldest demo patient (those go back 240 days).
  // The seed moment is read back from it (demo-shift.ts).
  const since = new Date(now.getTime() - DEMO_SINCE_DAYS * 86_400_000)
  const [row] = await tx
    .insert(hospitals)
    .values({ ...values, subscriptionStatus: 'active', createdAt: since, updatedAt: since })
    .returning({ id: hospitals.id, name: hospitals.name })
  if (!row) throw new Error('seed: hospital not created')
  return row
}

/**
 * Adds what the demo lacks, in the caller's transaction (which holds the seed's advisory
 * lock). Platform rows first, as the connecting role; then each hospital's tenant rows as
 * app_user with app.hospital_id set (RLS applies). Returns true when it added anything.
 */
export async function completeDemo(
  tx: Tx,
  spec: DemoSpec,
  passwordHash: string,
  now: Date,
  onSeeding?: () => void,
): Promise<boolean> {
  const state = await readPlatform(tx, spec)
  const problems = conflicts(state, spec)
  if (problems.length) throw new DemoSeedConflict(problems)
  onSeeding?.()
  let changed = false
  for (const h of spec.hospitals) {
    if (state.hospitals.has(h.key)) continue
    state.hospitals.set(h.key, await addHospital(tx, h, now))
    changed = true
  }
  for (const u of spec.users) {
    const found = state.users.get(u.email)
    if (found?.hasPassword) continue
    if (found) await addPassword(tx, found.id, passwordHash)
    else {
      const hospitalId = u.hospitalKey ? (state.hospitals.get(u.hospitalKey)?.id ?? null) : null
      await addUser(tx, u, hospitalId, passwordHash, now)
    }
    changed = true
  }
  // Read as the connecting role: the tenant part below runs as app_user.
  const staff = await readStaff(
    tx,
    [...state.hospitals.values()].map((r) => r.id),
  )
  for (const h of spec.hospitals) {
    const row = state.hospitals.get(h.key)
    if (!row) throw new Error(`seed: demo hospital ${h.key} missing`)
    await tx.execute(
      sql`select set_config('role', 'app_user', true), set_config('app.hospital_id', ${row.id}, true)`,
    )
    const tenant = await readTenant(tx, row.id)
    if (!tenant.counter) {
      await tx.insert(patientNumberCounters).values({
        hospitalId: row.id,
        prefix: patientNumberPrefix(row.name),
        nextValue: 1,
      })
      changed = true
    }
    const ctx = { hospitalId: row.id, staff: staff.get(row.id) ?? [], now }
    if (await completeTenant(tx, spec, h, tenant, ctx)) changed = true
  }
  return changed
}
