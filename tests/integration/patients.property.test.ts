import fc from 'fast-check'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rejectInvalidText } from '../../src/server/http/parse'
import { createPatientInput, patient, type Patient } from '../../src/shared/schemas/patients'
import { anyBody, patientBody, patientFieldNames } from '../support/hostile'
import { expectError } from '../support/http'
import { browserHeaders, login } from '../support/login'
import { countRows, getPatient, listPatients, patientsOf, storedPatient } from '../support/patients'
import { createTestApp, demoEmail, type TestApp } from '../support/test-app'

const RUNS = 150

function storable(value: unknown): boolean {
  try {
    rejectInvalidText(value)
    return true
  } catch {
    return false
  }
}

let t: TestApp
let cookie: string
let targetId: string

beforeAll(async () => {
  t = await createTestApp()
  cookie = await login(t.app, demoEmail('receptionist'))
  const [first] = patientsOf(await listPatients(t.app, cookie, '?limit=1'))
  targetId = first!.id
})
afterAll(async () => {
  await t?.close()
})

function send(method: 'POST' | 'PATCH', url: string, body: { raw: string } | { json: unknown }) {
  const payload = 'raw' in body ? body.raw : JSON.stringify(body.json)
  return t.app.inject({
    method,
    url,
    headers: browserHeaders(cookie),
    ...(payload === undefined ? {} : { payload }),
  })
}

/** The input fields of a stored patient, as a client would send them back. */
function inputFieldsOf(p: Patient): Record<string, unknown> {
  return Object.fromEntries(patientFieldNames.map((f) => [f, p[f as keyof Patient]]))
}

/**
 * What every answer must satisfy: no 5xx; errors in the one error shape; a 2xx patient
 * passes the response schema strictly, is what a GET returns, and is already in the
 * canonical form the input schema produces (so nothing unvalidated was stored).
 */
async function checkAnswer(res: LightMyRequestResponse): Promise<Patient | null> {
  expect(res.statusCode, res.body).toBeLessThan(500)
  if (res.statusCode >= 400) {
    expectError(res, res.statusCode)
    return null
  }
  const saved = patient.strict().parse(res.json())
  expect((await getPatient(t.app, cookie, saved.id)).json()).toEqual(saved)
  const fields = inputFieldsOf(saved)
  const again = createPatientInput.safeParse(fields)
  expect(again.success, JSON.stringify(again.error?.issues)).toBe(true)
  expect({ ...again.data, gender: again.data?.gender ?? null }).toEqual(fields)
  return saved
}

describe('POST /api/patients/manual with random and hostile bodies', () => {
  it('never answers 5xx for anything at all, and stores only valid patients', async () => {
    await fc.assert(
      fc.asyncProperty(anyBody, async (body) => {
        const audit = await countRows(t.db, 'audit_events')
        const saved = await checkAnswer(await send('POST', '/api/patients/manual', body))
        expect(await countRows(t.db, 'audit_events')).toBe(audit + (saved ? 1 : 0))
      }),
      { numRuns: RUNS },
    )
  })

  it('accepts exactly what the shared schema accepts, stored as the schema normalises it', async () => {
    let accepted = 0
    await fc.assert(
      fc.asyncProperty(patientBody(true), async (body) => {
        const res = await send('POST', '/api/patients/manual', { json: body })
        const saved = await checkAnswer(res)
        const sent: unknown = JSON.parse(JSON.stringify(body))
        const expected = createPatientInput.safeParse(sent)
        // Besides the shared schema, the server refuses text no column can store (NUL, lone surrogates).
        expect(saved !== null, `${res.statusCode} ${res.body}`).toBe(
          expected.success && storable(sent),
        )
        if (saved && expected.success) {
          accepted++
          expect(inputFieldsOf(saved)).toEqual({
            ...expected.data,
            gender: expected.data.gender ?? null,
          })
        }
      }),
      { numRuns: RUNS },
    )
    // The generator is meant to reach the database, not only the validator.
    expect(accepted).toBeGreaterThan(RUNS / 10)
  })
})

describe('PATCH /api/patients/:id with random and hostile bodies', () => {
  it('never answers 5xx, changes only the fields sent, and leaves the row alone on an error', async () => {
    let accepted = 0
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ weight: 3, arbitrary: patientBody(false).map((json) => ({ json })) }, anyBody),
        async (body) => {
          const before = patient.parse((await getPatient(t.app, cookie, targetId)).json())
          const rowBefore = await storedPatient(t.db, targetId)
          const audit = await countRows(t.db, 'audit_events')
          const saved = await checkAnswer(await send('PATCH', `/api/patients/${targetId}`, body))
          expect(await countRows(t.db, 'audit_events')).toBe(audit + (saved ? 1 : 0))
          if (!saved) {
            expect(await storedPatient(t.db, targetId)).toEqual(rowBefore)
            return
          }
          accepted++
          const sent =
            'json' in body && body.json && typeof body.json === 'object'
              ? Object.keys(body.json)
              : []
          for (const field of patientFieldNames.filter((f) => !sent.includes(f))) {
            expect(saved[field as keyof Patient], field).toEqual(before[field as keyof Patient])
          }
          expect(saved.id).toBe(before.id)
          expect(saved.hospitalId).toBe(before.hospitalId)
          expect(saved.createdAt).toBe(before.createdAt)
        },
      ),
      { numRuns: RUNS },
    )
    expect(accepted).toBeGreaterThan(RUNS / 20)
  })
})
