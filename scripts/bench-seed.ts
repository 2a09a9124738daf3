// Bench data: the demo seed, topped up to 50,000 patients in Sanjeevani and 5,000 in
// each of four other hospitals (Smile Dental plus three created here).
import { sql } from 'drizzle-orm'
import type { Auth } from '../src/server/auth/auth'
import type { AppDb } from '../src/server/db/client'
import { hospitals } from '../src/server/db/schema/hospitals'
import { patients } from '../src/server/db/schema/patients'
import { PATIENTS_PER_DEMO_HOSPITAL, seedDemo } from '../src/server/db/seed/demo'
import { createRng, generatePatients } from '../src/server/db/seed/patients'
import { withPlatform, withTenant } from '../src/server/db/tenant'

export const BENCH_PASSWORD = 'arogya-bench-2026'
export const BENCH_LOGIN = 'admin@sanjeevani.demo'
export const MAIN_PATIENTS = 50_000
export const OTHER_PATIENTS = 5_000
const BATCH = 1000

const extraHospitals = [
  { name: 'Lotus Eye Care, Nashik', email: 'care@lotuseye.bench', region: 'pune' as const },
  { name: 'Cauvery Diagnostics, Mysuru', email: 'lab@cauvery.bench', region: 'bengaluru' as const },
  { name: 'Shivneri Nursing Home, Junnar', email: 'desk@shivneri.bench', region: 'pune' as const },
]

async function insertPatients(
  db: AppDb,
  hospitalId: string,
  count: number,
  seed: number,
  region: 'pune' | 'bengaluru',
): Promise<void> {
  const rows = generatePatients(hospitalId, count, createRng(seed), region)
  await withTenant(db, { hospitalId, userId: null }, async (tx) => {
    for (let i = 0; i < rows.length; i += BATCH)
      await tx.insert(patients).values(rows.slice(i, i + BATCH))
  })
}

async function hospitalId(db: AppDb, email: string): Promise<string> {
  const rows = await withPlatform(db, (tx) =>
    tx.select({ id: hospitals.id, email: hospitals.email }).from(hospitals),
  )
  const row = rows.find((r) => r.email === email)
  if (!row) throw new Error(`bench: hospital ${email} missing`)
  return row.id
}

/** Seeds an empty database; returns the id of the 50,000-patient hospital. */
export async function seedBench(db: AppDb, auth: Auth): Promise<string> {
  if (!(await seedDemo(db, auth, BENCH_PASSWORD))) throw new Error('bench: database is not empty')
  const main = await hospitalId(db, 'contact@sanjeevani.demo')
  const dental = await hospitalId(db, 'hello@smiledental.demo')
  await insertPatients(db, main, MAIN_PATIENTS - PATIENTS_PER_DEMO_HOSPITAL, 9001, 'pune')
  await insertPatients(db, dental, OTHER_PATIENTS - PATIENTS_PER_DEMO_HOSPITAL, 9002, 'bengaluru')
  for (const [index, h] of extraHospitals.entries()) {
    const [row] = await withPlatform(db, (tx) =>
      tx
        .insert(hospitals)
        .values({
          name: h.name,
          email: h.email,
          hospitalType: 'clinic',
          plan: 'professional',
          subscriptionStatus: 'active',
        })
        .returning({ id: hospitals.id }),
    )
    if (!row) throw new Error('bench: hospital not created')
    await insertPatients(db, row.id, OTHER_PATIENTS, 9003 + index, h.region)
  }
  // Steady state, as autovacuum would leave it: fresh statistics, GIN pending lists merged.
  await db.execute(sql`vacuum analyze patients`)
  return main
}
