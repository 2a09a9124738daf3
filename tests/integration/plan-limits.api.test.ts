import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserHeaders, login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

let t: TestApp
let cookie: string
let hospital: string

beforeAll(async () => {
  t = await createTestApp()
  hospital = await hospitalIdOf(t.db, 'smiledental')
  cookie = await login(t.app, demoEmail('receptionist', 'smiledental'))
})
afterAll(async () => {
  await t?.close()
})

async function patientCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from patients where hospital_id = ${hospital}`,
  )
  return row?.n ?? -1
}

function add(name: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/patients/manual',
    headers: browserHeaders(cookie),
    payload: { name, phone: '98450 12345' },
  })
}

describe('plan patient limit', () => {
  it('refuses a patient beyond the plan limit with a clear 409, and stores nothing', async () => {
    const before = await patientCount()
    await queryRows(t.db, sql`update hospitals set max_patients = ${before} where id = ${hospital}`)
    const res = await add('Over Limit')
    expect(res.statusCode).toBe(409)
    expect(res.json<{ message: string }>().message).toMatch(
      new RegExp(`plan allows up to ${before} patients`),
    )
    expect(await patientCount()).toBe(before)
  })

  it('accepts it once the limit allows, and unlimited plans have no limit', async () => {
    const before = await patientCount()
    await queryRows(
      t.db,
      sql`update hospitals set max_patients = ${before + 1} where id = ${hospital}`,
    )
    expect((await add('Within Limit')).statusCode).toBe(201)
    expect((await add('One Too Many')).statusCode).toBe(409)
    await queryRows(t.db, sql`update hospitals set max_patients = null where id = ${hospital}`)
    expect((await add('Unlimited Plan')).statusCode).toBe(201)
    expect(await patientCount()).toBe(before + 2)
  })
})
