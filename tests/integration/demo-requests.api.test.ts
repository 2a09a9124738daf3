import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_REQUESTS_PER_IP_PER_HOUR } from '../../src/server/modules/demo-requests/demo-requests.routes'
import {
  type DemoRequest,
  demoRequest,
  demoRequestReceipt,
  normalizeIndianMobile,
} from '../../src/shared/schemas/demo-requests'
import { normalizePhone } from '../../src/shared/phone'
import { expectError, expectNoInternals, issuePaths } from '../support/http'
import { loginSuperAdmin } from '../support/two-factor'
import { browserHeaders, login } from '../support/login'
import { createTestApp, demoEmail, queryRows, type TestApp } from '../support/test-app'

let t: TestApp
let superCookie: string
beforeAll(async () => {
  t = await createTestApp()
  superCookie = await loginSuperAdmin(t.app)
})
afterAll(async () => {
  await t?.close()
})

// The per-IP limit is real: every test sends from its own address.
let nextIp = 1
const freshIp = () => `10.20.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`

const good = {
  name: 'Dr. Kavita Rao',
  organization: 'Rao Eye Care',
  mobile: '98765 43210',
  email: 'Kavita@RaoEyeCare.in',
  city: 'Pune',
  preferredTime: 'evening',
  source: 'pricing',
}

function post(payload: unknown, ip = freshIp()) {
  return t.app.inject({
    method: 'POST',
    url: '/api/demo-requests',
    headers: browserHeaders(),
    payload: payload as object,
    remoteAddress: ip,
  })
}

function list(cookie?: string, query = '') {
  return t.app.inject({
    method: 'GET',
    url: `/api/admin/demo-requests${query}`,
    headers: cookie ? { cookie } : {},
  })
}

describe('POST /api/demo-requests', () => {
  it('stores a good request without signing in and answers with a receipt', async () => {
    const res = await post(good)
    expect(res.statusCode, res.body).toBe(201)
    const receipt = demoRequestReceipt.strict().parse(res.json())
    expect(receipt).toMatchObject({
      name: 'Dr. Kavita Rao',
      mobile: '+919876543210',
      preferredTime: 'evening',
    })
    const [row] = await queryRows<Record<string, unknown>>(
      t.db,
      sql`select * from demo_requests where id = ${receipt.id}`,
    )
    expect(row).toMatchObject({
      name: 'Dr. Kavita Rao',
      organization: 'Rao Eye Care',
      mobile: '+919876543210',
      email: 'kavita@raoeyecare.in',
      city: 'Pune',
      preferred_time: 'evening',
      source: 'pricing',
    })
  })

  it.each([
    '9876543210',
    '+91 98765 43210',
    '+91-98765-43210',
    '098765 43210',
    '91 98765 43210',
    '(+91) 98765-43210',
  ])('normalises the mobile %s to +91 E.164', async (mobile) => {
    const res = await post({ name: 'Asha', organization: 'Asha Clinic', mobile })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json<{ mobile: string }>().mobile).toBe('+919876543210')
  })

  it('needs only name, clinic and mobile; the rest default', async () => {
    const res = await post({ name: 'Asha', organization: 'Asha Clinic', mobile: '7012345678' })
    expect(res.statusCode, res.body).toBe(201)
    const id = res.json<{ id: string }>().id
    const [row] = await queryRows<Record<string, unknown>>(
      t.db,
      sql`select * from demo_requests where id = ${id}`,
    )
    expect(row).toMatchObject({ email: null, city: null, preferred_time: 'any', source: 'landing' })
  })

  it('rejects an empty or blank name with a clear message', async () => {
    for (const name of ['', '   ']) {
      const res = await post({ ...good, name })
      expect(issuePaths(res)).toEqual(['name'])
      expect(res.json<{ issues: { message: string }[] }>().issues[0]?.message).toBe(
        'Please enter your name',
      )
    }
    expect(issuePaths(await post({ organization: 'X', mobile: '9876543210' }))).toEqual(['name'])
  })

  it.each([
    '12345',
    '5876543210',
    '98765 4321',
    '+1 415 555 0100',
    '+92 3001234567',
    'call me',
    '98765432101',
    '0098765 43210',
  ])('rejects the malformed mobile %s', async (mobile) => {
    const res = await post({ ...good, mobile })
    expect(issuePaths(res)).toEqual(['mobile'])
    expect(res.json<{ issues: { message: string }[] }>().issues[0]?.message).toBe(
      'Enter a valid 10-digit Indian mobile number, e.g. 98765 43210',
    )
  })

  it('rejects a bad email, an unknown preferred time or page, too-long text and unknown fields', async () => {
    expect(issuePaths(await post({ ...good, email: 'not-an-email' }))).toEqual(['email'])
    expect(issuePaths(await post({ ...good, preferredTime: 'midnight' }))).toEqual([
      'preferredTime',
    ])
    expect(issuePaths(await post({ ...good, source: 'admin' }))).toEqual(['source'])
    expect(issuePaths(await post({ ...good, organization: 'x'.repeat(201) }))).toEqual([
      'organization',
    ])
    const extra = expectError(await post({ ...good, status: 'approved' }), 400, 'VALIDATION')
    expect(extra.message).toMatch(/Unknown field/)
    expectError(await post([good]), 400, 'VALIDATION')
  })

  it(`allows ${DEMO_REQUESTS_PER_IP_PER_HOUR} requests per IP per hour, then 429; another IP is unaffected`, async () => {
    const ip = freshIp()
    for (let i = 0; i < DEMO_REQUESTS_PER_IP_PER_HOUR; i++)
      expect((await post(good, ip)).statusCode).toBe(201)
    const limited = expectError(await post(good, ip), 429, 'RATE_LIMITED')
    expect(limited.message).toMatch(/try again/i)
    expect((await post(good)).statusCode).toBe(201)
  })

  it('refuses a cross-site browser post', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/demo-requests',
      headers: { ...browserHeaders(), origin: 'https://evil.example' },
      payload: good,
      remoteAddress: freshIp(),
    })
    expectError(res, 403, 'FORBIDDEN')
  })

  it('never answers a hostile body with a 5xx or stores it', async () => {
    const before = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from demo_requests`,
    )
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.anything(),
          fc.record({ name: fc.anything(), organization: fc.anything(), mobile: fc.anything() }),
          fc.record({
            name: fc.string(),
            organization: fc.string(),
            mobile: fc.string(),
            city: fc.anything(),
          }),
        ),
        async (body) => {
          const res = await t.app.inject({
            method: 'POST',
            url: '/api/demo-requests',
            headers: browserHeaders(),
            payload: JSON.stringify(body ?? null),
            remoteAddress: freshIp(),
          })
          expect(res.statusCode).toBeLessThan(500)
          expectNoInternals(res)
          if (res.statusCode === 201) {
            const stored = res.json<{ mobile: string }>()
            expect(stored.mobile).toMatch(/^\+91[6-9]\d{9}$/)
          }
        },
      ),
      { numRuns: 60 },
    )
    const after = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from demo_requests where name = ''`,
    )
    expect(after[0]?.n).toBe(0)
    expect(before[0]?.n).toBeGreaterThan(0)
  })
})

describe('GET /api/admin/demo-requests', () => {
  it('is for super admins only: 401 signed out, 403 for a hospital admin', async () => {
    expectError(await list(), 401, 'UNAUTHENTICATED')
    expectError(await list(await login(t.app, demoEmail('admin'))), 403, 'FORBIDDEN')
  })

  it('lists every request newest first, a page at a time', async () => {
    const names = ['First Lead', 'Second Lead', 'Third Lead']
    for (const name of names) expect((await post({ ...good, name })).statusCode).toBe(201)
    const all = await list(superCookie)
    expect(all.statusCode, all.body).toBe(200)
    const items = demoRequest.strict().array().parse(all.json())
    expect(items.slice(0, 3).map((r) => r.name)).toEqual([
      'Third Lead',
      'Second Lead',
      'First Lead',
    ])
    expect(items[0]).toMatchObject({
      organization: 'Rao Eye Care',
      mobile: '+919876543210',
      city: 'Pune',
      preferredTime: 'evening',
    })

    const seen: DemoRequest[] = []
    let cursor: string | undefined
    do {
      const res = await list(superCookie, `?limit=4${cursor ? `&cursor=${cursor}` : ''}`)
      expect(res.statusCode).toBe(200)
      seen.push(...res.json<DemoRequest[]>())
      cursor = res.headers['x-next-cursor'] as string | undefined
    } while (cursor)
    expect(seen.map((r) => r.id)).toEqual(items.map((r) => r.id))
  })

  it('rejects a bad cursor or limit with 400', async () => {
    expect(issuePaths(await list(superCookie, '?cursor=nonsense'))).toEqual(['cursor'])
    expect(issuePaths(await list(superCookie, '?limit=0'))).toEqual(['limit'])
  })
})

describe('normalizeIndianMobile', () => {
  it('agrees with libphonenumber on Indian mobiles', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('6', '7', '8', '9'),
        fc.stringMatching(/^\d{9}$/),
        fc.constantFrom('', '+91 ', '0', '91'),
        (first, rest, prefix) => {
          const typed = `${prefix}${first}${rest.slice(0, 4)} ${rest.slice(4)}`
          expect(normalizeIndianMobile(typed)).toBe(normalizePhone(typed))
        },
      ),
    )
  })
})
