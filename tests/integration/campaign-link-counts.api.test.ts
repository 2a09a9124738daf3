import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withTenant } from '../../src/server/db/tenant'
import { createTestApp, hospitalIdOf, queryRows, type TestApp } from '../support/test-app'

/*
 * drizzle/0034: the per-key lead counters behind the campaign summary stay equal to a count of
 * the leads themselves through any mix of inserts, key changes, conversions and deletes, in
 * bulk or one at a time, and across hospitals.
 */
let t: TestApp
let hospitals: string[]
/** A patient of each hospital: a converted lead must name the patient it became. */
const patientOf = new Map<string, string>()
beforeAll(async () => {
  t = await createTestApp()
  hospitals = [await hospitalIdOf(t.db, 'sanjeevani'), await hospitalIdOf(t.db, 'smiledental')]
  for (const h of hospitals) {
    const [row] = await queryRows<{ id: string }>(
      t.db,
      sql`select id::text from patients where hospital_id = ${h} limit 1`,
    )
    patientOf.set(h, row!.id)
  }
})
afterAll(async () => {
  await t?.close()
})

type Row = {
  hospital_id: string
  campaign: string
  meta_form_id: string
  leads: number
  conversions: number
}

async function counters(): Promise<Row[]> {
  return queryRows<Row>(
    t.db,
    sql`select hospital_id::text, campaign, meta_form_id, leads, conversions from campaign_link_counts
        where leads <> 0 or conversions <> 0 order by 1, 2, 3`,
  )
}
async function recount(): Promise<Row[]> {
  return queryRows<Row>(
    t.db,
    sql`select hospital_id::text, coalesce(campaign, '') as campaign,
          coalesce(meta_form_id, '') as meta_form_id, count(*)::int as leads,
          (count(*) filter (where status = 'converted'))::int as conversions
        from leads where campaign is not null or meta_form_id is not null
        group by 1, 2, 3 order by 1, 2, 3`,
  )
}

const key = fc.constantFrom<string | null>(null, 'Camp A', 'Camp B', 'Camp C')
const form = fc.constantFrom<string | null>(null, 'form1', 'form2')
const status = fc.constantFrom('new', 'contacted', 'converted', 'rejected')
const op = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    h: fc.nat(1),
    n: fc.integer({ min: 1, max: 30 }),
    campaign: key,
    form,
    status,
  }),
  fc.record({
    kind: fc.constant('update' as const),
    h: fc.nat(1),
    from: key,
    campaign: key,
    form,
    status,
  }),
  fc.record({ kind: fc.constant('delete' as const), h: fc.nat(1), from: key, form }),
)

let serial = 0
describe('campaign_link_counts', () => {
  it('starts equal to the seeded leads', async () => {
    expect(await counters()).toEqual(await recount())
  })

  it('stays equal to a recount through random inserts, key changes, conversions and deletes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
        for (const o of ops) {
          const hospitalId = hospitals[o.h]!
          await withTenant(t.db, { hospitalId, userId: null }, async (tx) => {
            if (o.kind === 'insert') {
              const base = (serial += 100)
              await tx.execute(
                sql`insert into leads (hospital_id, name, phone, source, status, campaign, meta_form_id, patient_id)
                    select ${hospitalId}, 'Counter lead ' || g, '+9188' || lpad((${base} + g)::text, 8, '0'),
                      'manual', ${o.status}, ${o.campaign}, ${o.form},
                      case when ${o.status} = 'converted' then ${patientOf.get(hospitalId)}::uuid end
                    from generate_series(1, ${o.n}) g`,
              )
            } else if (o.kind === 'update') {
              await tx.execute(
                sql`update leads set campaign = ${o.campaign}, meta_form_id = ${o.form}, status = ${o.status},
                      patient_id = case when ${o.status} = 'converted' then ${patientOf.get(hospitalId)}::uuid end
                    where name like 'Counter lead %' and campaign is not distinct from ${o.from}`,
              )
            } else {
              await tx.execute(
                sql`delete from leads where name like 'Counter lead %'
                    and campaign is not distinct from ${o.from} and meta_form_id is not distinct from ${o.form}`,
              )
            }
          })
        }
        expect(await counters()).toEqual(await recount())
      }),
      { numRuns: 15 },
    )
  }, 120_000)

  it('a change rolled back leaves the counters as they were; another hospital cannot see them', async () => {
    const before = await counters()
    await expect(
      withTenant(t.db, { hospitalId: hospitals[0]!, userId: null }, async (tx) => {
        await tx.execute(
          sql`insert into leads (hospital_id, name, phone, source, campaign) values
              (${hospitals[0]!}, 'Rolled back', '+919999900001', 'manual', 'Camp Z')`,
        )
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    expect(await counters()).toEqual(before)
    const seen = await withTenant(t.db, { hospitalId: hospitals[1]!, userId: null }, (tx) =>
      tx.execute(sql`select distinct hospital_id::text as h from campaign_link_counts`),
    )
    const rows = (seen as unknown as { rows: { h: string }[] }).rows
    expect(rows.every((r) => r.h === hospitals[1])).toBe(true)
  })
})
