// Bench patients for the benched hospital, inserted in bulk the way the app writes: in the
// hospital's tenant transaction (role app_user, app.hospital_id set), so RLS checks every
// row. One INSERT ... SELECT over a JSON array per chunk keeps it to a few dozen statements
// for 100,000 rows, on PostgreSQL and PGlite. Patient numbers: each chunk advances the
// hospital's counter once, under its row lock, and gives the rows the numbers the trigger
// would have given (it keeps a number it is given). Letting the trigger upsert the counter
// per row costs O(n^2) in one transaction (every update adds a row version the next one
// walks past): 100,000 rows took 98 s, against about 5 s this way.
import { allergies, areas, conditions, femaleNames, insurers, maleNames, surnames } from './people'

/** Runs one statement; both pg.Client and PGlite fit. */
export interface Sql {
  query: (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>
}

/** One patient in 5,000 has this surname: the rare search term. */
export const RARE_SURNAME = 'Wadiyar'
const CHUNK = 5_000

function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!

/** Indian mobiles in E.164 (leading 6-9), as the app stores them. */
function mobile(r: () => number): string {
  return `+91${pick(r, ['98', '97', '99', '88', '70', '81', '90', '63'])}${String(Math.floor(r() * 1e8)).padStart(8, '0')}`
}

/**
 * `count` patients like the demo seed's (surnames uniform over ~30, so each is about 3 %),
 * added over the last three years, plus a rare surname one time in 5,000.
 */
export function benchPatients(count: number, seed = 9001): Record<string, unknown>[] {
  const r = rng(seed)
  const now = Date.now()
  const span = 3 * 365 * 24 * 3600 * 1000
  const rows: Record<string, unknown>[] = []
  for (let i = 0; i < count; i++) {
    const male = r() < 0.48
    const first = pick(r, male ? maleNames : femaleNames)
    const last = r() < 1 / 5000 ? RARE_SURNAME : pick(r, surnames)
    const handle = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '')
    const insured = r() < 0.7
    // Oldest first, so created_at grows with the patient number as it would in real use.
    const created = new Date(now - span + Math.floor((span * i) / count)).toISOString()
    rows.push({
      name: `${first} ${last}`,
      email: r() < 0.85 ? `${handle}${Math.floor(r() * 100)}@gmail.com` : null,
      phone: mobile(r),
      gender: male ? 'male' : 'female',
      date_of_birth: `${1945 + Math.floor(r() * 75)}-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-${String(1 + Math.floor(r() * 28)).padStart(2, '0')}`,
      address: pick(r, areas),
      emergency_contact: `${pick(r, male ? femaleNames : maleNames)} ${last} (spouse) ${mobile(r)}`,
      insurance_provider: insured ? pick(r, insurers) : null,
      insurance_number: insured ? `SH${Math.floor(1e9 + r() * 9e9)}` : null,
      medical_history: r() < 0.65 ? pick(r, conditions) : null,
      allergies: r() < 0.35 ? pick(r, allergies) : null,
      created_at: created,
      updated_at: created,
    })
  }
  return rows
}

const COLUMNS = `name text, email text, phone text, gender text, date_of_birth date, address text,
  emergency_contact text, insurance_provider text, insurance_number text, medical_history text,
  allergies text, created_at timestamptz, updated_at timestamptz`

/** The benched hospital's id, read as the connecting (platform) role. */
export async function hospitalIdByEmail(db: Sql, email: string): Promise<string> {
  const { rows } = await db.query('select id from hospitals where email = $1', [email])
  const id = rows[0]?.id
  if (typeof id !== 'string') throw new Error(`bench: hospital ${email} not found`)
  return id
}

/**
 * Inserts `rows` into the hospital in one tenant transaction (as withTenant sets it up),
 * then VACUUM ANALYZE, as autovacuum would leave the table. Returns the patients it now has.
 */
export async function insertPatients(
  db: Sql,
  hospitalId: string,
  rows: Record<string, unknown>[],
): Promise<number> {
  await db.query('begin')
  try {
    await db.query(
      `select set_config('role', 'app_user', true), set_config('app.hospital_id', $1, true)`,
      [hospitalId],
    )
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = rows.slice(i, i + CHUNK).map((row, seq) => ({ ...row, seq }))
      const { rows: inserted } = await db.query(
        `with c as (
           update patient_number_counters set next_value = next_value + $3
           where hospital_id = $1 returning prefix, next_value - $3 as first)
         insert into patients (hospital_id, name, email, phone, gender, date_of_birth, address,
           emergency_contact, insurance_provider, insurance_number, medical_history, allergies,
           created_at, updated_at, patient_number)
         select $1::uuid, r.name, r.email, r.phone, r.gender, r.date_of_birth, r.address,
           r.emergency_contact, r.insurance_provider, r.insurance_number, r.medical_history,
           r.allergies, r.created_at, r.updated_at,
           c.prefix || '-' || case when c.first + r.seq < 1000000
             then lpad((c.first + r.seq)::text, 6, '0') else (c.first + r.seq)::text end
         from c, jsonb_to_recordset($2::jsonb) as r(${COLUMNS}, seq int)
         returning 1`,
        [hospitalId, JSON.stringify(chunk), chunk.length],
      )
      if (inserted.length !== chunk.length) throw new Error('bench: hospital has no number counter')
    }
    await db.query('commit')
  } catch (error) {
    await db.query('rollback')
    throw error
  }
  await db.query('vacuum analyze patients')
  const { rows: counted } = await db.query(
    'select count(*)::int as n from patients where hospital_id = $1',
    [hospitalId],
  )
  return Number(counted[0]?.n ?? 0)
}
