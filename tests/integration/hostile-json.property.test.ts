import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { SeenRoute } from '../support/route-recorder'
import { AUTH_BASE, authEndpoints } from '../../src/server/auth/endpoints'
import { anyBody, hostileObject } from '../support/hostile'
import { expectError } from '../support/http'
import { browserHeaders, login } from '../support/login'
import { listPatients, patientsOf } from '../support/patients'
import { createTestApp, demoEmail, type TestApp } from '../support/test-app'

// Issue 17: a scanner that speaks only form bodies never reaches our JSON routes, so random and
// hostile JSON at every mutating route is our injection fuzzing. Routes come from the app
// itself (an onRoute hook), so a route added later is covered without touching this file.

const routes = vi.hoisted(() => [] as SeenRoute[])
vi.mock('fastify', async (importOriginal) => {
  const { recordingFastify } = await import('../support/route-recorder')
  return recordingFastify(await importOriginal(), routes)
})

const RUNS = Number(process.env.HOSTILE_RUNS ?? 40)
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/** Routes after which the session may be gone (sign-out, revocation). */
const ENDS_SESSION = /\/(sign-out|revoke-sessions|logout)$/

let t: TestApp
let cookie: string
let patientId: string
let requests = 0
let serverErrors = 0

beforeAll(async () => {
  t = await createTestApp()
  cookie = await login(t.app, demoEmail('admin'))
  const [first] = patientsOf(await listPatients(t.app, cookie, '?limit=1'))
  patientId = first?.id ?? '00000000-0000-4000-8000-000000000000'
})
afterAll(async () => {
  console.log(`hostile JSON: ${requests} requests, ${serverErrors} 5xx`)
  await t?.close()
})

/** Every mutating route, with the /api/auth/* forwarder expanded to the endpoints it allows. */
function mutatingRoutes(): { method: string; url: string }[] {
  const list = new Map<string, { method: string; url: string }>()
  for (const r of routes) {
    if (!MUTATING.has(r.method) || !r.url.startsWith('/api')) continue
    if (r.url.endsWith('/*')) {
      for (const e of authEndpoints.filter((x) => MUTATING.has(x.method)))
        list.set(`${e.method} ${AUTH_BASE}${e.path}`, { method: e.method, url: AUTH_BASE + e.path })
      continue
    }
    list.set(`${r.method} ${r.url}`, r)
  }
  return [...list.values()]
}

let address = 0
/** A different client address each time, so per-IP limits do not end the run early. */
function nextAddress(): string {
  address++
  return `198.18.${(address >> 8) & 255}.${address & 255}`
}

describe('random and hostile JSON at every mutating JSON route', () => {
  it('finds the routes from the app', () => {
    const found = mutatingRoutes().map((r) => `${r.method} ${r.url}`)
    expect(found).toEqual(
      expect.arrayContaining([
        'POST /api/patients/manual',
        'PATCH /api/patients/:id',
        'POST /api/demo-requests',
        'POST /api/auth/trial',
        'POST /api/auth/sign-in/email',
        'POST /api/auth/change-password',
        'POST /api/logout',
      ]),
    )
  })

  it('never answers 5xx, and every error has the one error shape', async () => {
    const list = mutatingRoutes()
    const body = fc.oneof(anyBody, hostileObject)
    const perRoute: string[] = []
    for (const route of list) {
      let here = 0
      const url = route.url.replace(/:[A-Za-z]+/g, patientId)
      await fc.assert(
        fc.asyncProperty(body, fc.boolean(), async (sent, signedIn) => {
          const payload = 'raw' in sent ? sent.raw : JSON.stringify(sent.json)
          const res = await t.app.inject({
            method: route.method as 'POST',
            url,
            remoteAddress: nextAddress(),
            headers: browserHeaders(signedIn ? cookie : undefined),
            ...(payload === undefined ? {} : { payload }),
          })
          requests++
          here++
          if (res.statusCode >= 500) serverErrors++
          expect(res.statusCode, `${route.method} ${url} ${payload}: ${res.body}`).toBeLessThan(500)
          if (res.statusCode >= 400) expectError(res, res.statusCode)
          if (signedIn && ENDS_SESSION.test(route.url) && res.statusCode < 400)
            cookie = await login(t.app, demoEmail('admin'))
        }),
        { numRuns: RUNS },
      )
      perRoute.push(`${route.method} ${route.url}: ${here}`)
    }
    console.log(`hostile JSON per route:\n  ${perRoute.join('\n  ')}`)
    expect(serverErrors).toBe(0)
  }, 300_000) // every mutating route (more with each feature), RUNS bodies each
})
