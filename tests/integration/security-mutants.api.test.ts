import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectError, issuePaths } from '../support/http'
import { call } from '../support/leads'
import { browserHeaders, login } from '../support/login'
import { createPatient, listPatients, manualPatientPayload } from '../support/patients'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 30: a test for each deliberate security bug that once passed the whole suite. Each
// of these was run once with its bug put back, and failed (docs/decisions/022):
// - access.ts's fallback for an unknown role turned from 'viewer' into 'admin';
// - insertPatient's pg_advisory_xact_lock deleted (PostgreSQL);
// - the `$` dropped from the cursor's UUID regex (patients.search.ts);
// - /^\d{14}$/ turned into /^\d{14}/ for the ABHA number (shared/schemas/patients.ts).
let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t?.close()
})

describe('a role the code does not know', () => {
  // users.role has a CHECK constraint (migration 0015), so the state is unrepresentable; the
  // test lifts the constraint for a moment to prove the second line of defence too.
  it('gets the least privilege: 403 on a write, on an admin route and on a platform route', async () => {
    const email = demoEmail('admin', 'smiledental')
    await t.db.execute(sql`alter table users drop constraint users_role_check`)
    try {
      for (const role of ['Admin', 'superadmin', 'admin ', 'owner']) {
        await t.db.execute(sql`update users set role = ${role} where email = ${email}`)
        // A new session each time: nothing cached from the role before.
        const cookie = await login(t.app, email)
        const me = await t.app.inject({
          method: 'GET',
          url: '/api/auth/user',
          headers: { cookie },
        })
        expect(me.statusCode).toBe(200)
        expect(me.json<{ role: string }>().role).toBe('viewer')
        // Reading is what a viewer may do.
        expect((await listPatients(t.app, cookie, '?limit=1')).statusCode).toBe(200)
        expectError(
          await createPatient(t.app, cookie, manualPatientPayload({ phone: '98450 22334' })),
          403,
          'FORBIDDEN',
        )
        expectError(
          await call(t.app, cookie, 'POST', '/api/leads', {
            name: 'Unknown Role',
            phone: '98450 22335',
          }),
          403,
          'FORBIDDEN',
        )
        // hospital:manage (Settings → Integrations), and a super-admin route.
        expectError(await call(t.app, cookie, 'GET', '/api/integrations/meta'), 403, 'FORBIDDEN')
        expectError(await call(t.app, cookie, 'GET', '/api/admin/outbox'), 403, 'FORBIDDEN')
      }
    } finally {
      await t.db.execute(sql`update users set role = 'admin' where email = ${email}`)
      await t.db.execute(
        sql`alter table users add constraint users_role_check check (role in ('super_admin', 'admin', 'doctor', 'nurse', 'receptionist', 'viewer'))`,
      )
    }
  })

  it('cannot be stored: the CHECK constraint refuses it', async () => {
    const email = demoEmail('nurse', 'smiledental')
    await expect(
      t.db.execute(sql`update users set role = 'Admin' where email = ${email}`),
    ).rejects.toThrow()
    const [row] = await queryRows<{ role: string }>(
      t.db,
      sql`select role from users where email = ${email}`,
    )
    expect(row?.role).toBe('nurse')
  })
})

describe('the plan’s patient limit under concurrency', () => {
  // PGlite runs one transaction at a time, so only PostgreSQL can race two adds.
  it.runIf(process.env.TEST_DATABASE_URL)(
    '10 adds at the same moment at limit − 1: exactly one 201, nine 409s, one row more',
    async () => {
      const hospital = await hospitalIdOf(t.db, 'sanjeevani')
      const cookie = await login(t.app, demoEmail('receptionist'))
      const count = async () => {
        const [row] = await queryRows<{ n: number }>(
          t.db,
          sql`select count(*)::int as n from patients where hospital_id = ${hospital}`,
        )
        return row?.n ?? -1
      }
      try {
        for (let round = 0; round < 3; round++) {
          const start = await count()
          await t.db.execute(
            sql`update hospitals set max_patients = ${start + 1} where id = ${hospital}`,
          )
          const answers = await Promise.all(
            Array.from({ length: 10 }, (_, i) =>
              t.app.inject({
                method: 'POST',
                url: '/api/patients/manual',
                headers: browserHeaders(cookie),
                payload: { name: `Race ${round} ${i}`, phone: `98450 3${round}${i}00` },
              }),
            ),
          )
          const statuses = answers.map((a) => a.statusCode).sort()
          expect(statuses, answers.map((a) => a.body).join('\n')).toEqual([
            201,
            ...Array<number>(9).fill(409),
          ])
          expect(await count()).toBe(start + 1)
        }
      } finally {
        await t.db.execute(sql`update hospitals set max_patients = null where id = ${hospital}`)
      }
    },
  )
})

describe('a cursor that is a UUID with something after it', () => {
  const tails = ['x', '0', '%20', '%0A', '%0Aselect', "'--", '/../1']

  it('gets 400 on the patients list', async () => {
    const cookie = await login(t.app, demoEmail('doctor'))
    const [first] = (await listPatients(t.app, cookie, '?limit=1')).json<{ id: string }[]>()
    expect(first?.id).toBeDefined()
    for (const tail of tails) {
      for (const sort of ['recent', 'name']) {
        const res = await listPatients(t.app, cookie, `?sort=${sort}&cursor=${first?.id}${tail}`)
        expect(issuePaths(res), `${tail}: ${res.body}`).toEqual(['cursor'])
      }
    }
    // The same id on its own is a cursor.
    expect((await listPatients(t.app, cookie, `?cursor=${first?.id}`)).statusCode).toBe(200)
  })

  it('gets 400 on the leads list', async () => {
    const cookie = await login(t.app, demoEmail('doctor'))
    const page = (await call(t.app, cookie, 'GET', '/api/leads?limit=1')).json<{
      leads: { id: string }[]
    }>()
    const id = page.leads[0]?.id
    expect(id).toBeDefined()
    for (const tail of tails) {
      const res = await call(t.app, cookie, 'GET', `/api/leads?cursor=${id}${tail}`)
      expect(issuePaths(res), `${tail}: ${res.body}`).toEqual(['cursor'])
    }
    expect((await call(t.app, cookie, 'GET', `/api/leads?cursor=${id}`)).statusCode).toBe(200)
  })
})

describe('an ABHA number with more than 14 digits', () => {
  const tooLong = ['123456789012345', '12-3456-7890-12345', '12345678901234x', '12345678901234 5']

  it('gets 400 when a patient is added, and nothing is stored', async () => {
    const cookie = await login(t.app, demoEmail('receptionist'))
    for (const [i, abhaNumber] of tooLong.entries()) {
      const res = await createPatient(
        t.app,
        cookie,
        manualPatientPayload({ abhaNumber, name: `Abha Check ${i}`, phone: `98450 4${i}111` }),
      )
      expect(issuePaths(res), `${abhaNumber}: ${res.body}`).toEqual(['abhaNumber'])
    }
    const [row] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from patients where name like 'Abha Check %'`,
    )
    expect(row?.n).toBe(0)
  })

  it('gets 400 when a patient is changed, and the stored number stays', async () => {
    const cookie = await login(t.app, demoEmail('receptionist'))
    const created = await createPatient(
      t.app,
      cookie,
      manualPatientPayload({
        abhaNumber: '12345678901234',
        name: 'Abha Kept',
        phone: '98450 45555',
      }),
    )
    expect(created.statusCode, created.body).toBe(201)
    const { id } = created.json<{ id: string }>()
    for (const abhaNumber of tooLong) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/patients/${id}`,
        headers: browserHeaders(cookie),
        payload: { abhaNumber },
      })
      expect(issuePaths(res), `${abhaNumber}: ${res.body}`).toEqual(['abhaNumber'])
    }
    const [row] = await queryRows<{ abha_number: string }>(
      t.db,
      sql`select abha_number from patients where id = ${id}`,
    )
    expect(row?.abha_number).toBe('12-3456-7890-1234')
  })
})
