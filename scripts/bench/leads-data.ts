// Bench leads: 100,000 of them in the benched hospital, inserted in bulk in its tenant
// transaction (RLS checks every row, as for patients in seed.ts), and the CSV file the import
// bench uploads. Phones are unique by construction: stored leads use +9198…, the CSV's new
// rows +9197…, the webhook's leads +9199….
import { femaleNames, maleNames, surnames } from './people'
import type { Sql } from './seed'

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

/** A value by weight: [[value, weight], ...]. */
function weighted<T>(r: () => number, table: readonly (readonly [T, number])[]): T {
  const total = table.reduce((sum, [, w]) => sum + w, 0)
  let at = r() * total
  for (const [value, w] of table) {
    at -= w
    if (at < 0) return value
  }
  return table.at(-1)![0]
}

/**
 * The n-th number of a series: +91 <prefix> <8 digits>, unique within the series (n times a
 * number prime to 10^8 is a permutation) and spread like real numbers, so a typed prefix such
 * as '98000' matches about one lead in a thousand, not all of the first ones.
 */
export const seriesPhone = (prefix: '98' | '97' | '99', n: number) =>
  `+91${prefix}${String((n * 7919 + 12345) % 1e8).padStart(8, '0')}`

const statuses = [
  ['new', 30],
  ['contacted', 25],
  ['follow-up', 20],
  ['converted', 15],
  ['rejected', 10],
] as const
const sources = [
  ['meta-facebook', 35],
  ['meta-instagram', 20],
  ['google-ads', 15],
  ['referral', 10],
  ['manual', 8],
  ['walk-in', 7],
  ['csv-import', 5],
] as const
const priorities = [
  ['high', 20],
  ['medium', 55],
  ['low', 25],
] as const
const services = [
  'IVF consultation',
  'Knee replacement',
  'Cardiac check-up',
  'Cataract surgery',
  'Dental implants',
  'Maternity package',
  'Physiotherapy',
  'Skin and hair',
  'Diabetes care',
  'General Inquiry',
]
const campaigns = [
  'Diwali health camp',
  'Free eye check-up week',
  'IVF awareness reel',
  'Monsoon fever clinic',
  'Senior citizen package',
]

function personName(r: () => number): string {
  return `${pick(r, r() < 0.5 ? maleNames : femaleNames)} ${pick(r, surnames)}`
}

/** `count` leads over the last 180 days; `staff` are user ids some are assigned to. */
export function benchLeads(count: number, staff: string[], seed = 4242): Record<string, unknown>[] {
  const r = rng(seed)
  const now = Date.now()
  const span = 180 * 24 * 3600 * 1000
  const rows: Record<string, unknown>[] = []
  for (let i = 0; i < count; i++) {
    const name = personName(r)
    const source = weighted(r, sources)
    const status = weighted(r, statuses)
    const created = now - span + Math.floor((span * i) / count)
    const contacted = status !== 'new' ? created + Math.floor(r() * 5 * 24 * 3600 * 1000) : null
    const handle = name.toLowerCase().replace(/[^a-z]+/g, '.')
    rows.push({
      name,
      email: r() < 0.6 ? `${handle}${i % 1000}@gmail.com` : null,
      phone: seriesPhone('98', i),
      status,
      source,
      priority: weighted(r, priorities),
      service_interest: pick(r, services),
      campaign: source.startsWith('meta') || source === 'google-ads' ? pick(r, campaigns) : null,
      notes: r() < 0.3 ? 'Asked for a call back in the evening' : null,
      meta_lead_id: source.startsWith('meta') ? `2${String(i).padStart(14, '0')}` : null,
      assigned_to_user_id: staff.length && r() < 0.6 ? pick(r, staff) : null,
      last_contact_at: contacted && contacted < now ? new Date(contacted).toISOString() : null,
      created_at: new Date(created).toISOString(),
      updated_at: new Date(contacted && contacted < now ? contacted : created).toISOString(),
    })
  }
  return rows
}

const COLUMNS = `name text, email text, phone text, status text, source text, priority text,
  service_interest text, campaign text, notes text, meta_lead_id text, assigned_to_user_id text,
  last_contact_at timestamptz, created_at timestamptz, updated_at timestamptz`

/** Inserts the leads in the hospital's tenant transaction, then VACUUM ANALYZE. */
export async function insertLeads(
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
      await db.query(
        `insert into leads (hospital_id, name, email, phone, status, source, priority,
           service_interest, campaign, notes, meta_lead_id, assigned_to_user_id, last_contact_at,
           created_at, updated_at)
         select $1::uuid, r.name, r.email, r.phone, r.status, r.source, r.priority,
           r.service_interest, r.campaign, r.notes, r.meta_lead_id, r.assigned_to_user_id,
           r.last_contact_at, r.created_at, r.updated_at
         from jsonb_to_recordset($2::jsonb) as r(${COLUMNS})`,
        [hospitalId, JSON.stringify(rows.slice(i, i + CHUNK))],
      )
    }
    await db.query('commit')
  } catch (error) {
    await db.query('rollback')
    throw error
  }
  await db.query('vacuum analyze leads')
  const { rows: counted } = await db.query(
    'select count(*)::int as n from leads where hospital_id = $1',
    [hospitalId],
  )
  return Number(counted[0]?.n ?? 0)
}

const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)

/**
 * An export from another system: `count` rows, 10 % of them phones already stored (merged),
 * 0.5 % with a phone that is not one (reported), the rest new. Returns the file and what the
 * import should report.
 */
export function importCsv(
  count: number,
  storedLeads: number,
  seed = 777,
): { csv: string; merged: number; bad: number } {
  const r = rng(seed)
  const lines = ['Full Name,Mobile,Email,Service,Campaign,Notes']
  let merged = 0
  let bad = 0
  for (let i = 0; i < count; i++) {
    const name = personName(r)
    const roll = r()
    let phone: string
    if (roll < 0.005) {
      phone = '12345'
      bad++
    } else if (roll < 0.105 && storedLeads > 0) {
      // Each stored phone at most once, so every such row is one merge.
      phone = seriesPhone('98', Math.floor((i / count) * storedLeads)).slice(3)
      merged++
    } else {
      phone = `${seriesPhone('97', i).slice(3, 8)} ${seriesPhone('97', i).slice(8)}`
    }
    lines.push(
      [
        name,
        phone,
        r() < 0.5 ? `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@yahoo.co.in` : '',
        pick(r, services),
        pick(r, campaigns),
        r() < 0.2 ? 'Called from the health camp, prefers Hindi' : '',
      ]
        .map(csvCell)
        .join(','),
    )
  }
  return { csv: `${lines.join('\n')}\n`, merged, bad }
}
