import fc from 'fast-check'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lead } from '../../src/shared/schemas/leads'
import { hostileString, hostileValue } from '../support/hostile'
import { expectError } from '../support/http'
import { call, newLead } from '../support/leads'
import { login } from '../support/login'
import { createTestApp, demoEmail, queryRows, type TestApp } from '../support/test-app'

// The generic hostile-JSON test aims at every mutating route with a patient's id, so lead
// routes answer 404 there. Here plausible and hostile lead bodies go to a real lead.

const RUNS = Number(process.env.HOSTILE_RUNS ?? 60)

let t: TestApp
let cookie: string
let leadId: string

beforeAll(async () => {
  t = await createTestApp()
  cookie = await login(t.app, demoEmail('receptionist'))
  leadId = (await newLead(t.app, cookie)).id
})
afterAll(async () => {
  await t?.close()
})

const plausibleLead: Record<string, fc.Arbitrary<unknown>> = {
  name: fc.oneof(fc.constantFrom('Anjali Menon', "Mary D'Souza"), fc.string({ maxLength: 60 })),
  phone: fc.constantFrom(
    '9876543210',
    '098765 43210',
    '+91 98220 12345',
    '020 2550 1234',
    '+1 212 555 0123',
  ),
  email: fc.constantFrom('a@b.co', ' X@Example.COM ', '', null),
  serviceInterest: fc.oneof(fc.string({ maxLength: 40 }), fc.constant(null)),
  campaign: fc.oneof(fc.string({ maxLength: 40 }), fc.constant(null)),
  notes: fc.oneof(fc.string({ maxLength: 200 }), fc.constant(null)),
  priority: fc.constantFrom('high', 'medium', 'low'),
  source: fc.constantFrom('manual', 'walk-in', 'referral', 'google-ads'),
  status: fc.constantFrom('new', 'contacted', 'follow-up', 'rejected'),
  assignedToUserId: fc.constantFrom(null, 'nobody'),
  leadId: fc.constant('LEAD'),
  type: fc.constantFrom('call', 'whatsapp', 'sms', 'email', 'system', 'phone'),
  direction: fc.constantFrom('inbound', 'outbound'),
  content: fc.string({ minLength: 1, maxLength: 80 }),
  metadata: fc.dictionary(
    fc.string({ maxLength: 10 }),
    fc.oneof(fc.string(), fc.integer(), fc.boolean()),
    {
      maxKeys: 3,
    },
  ),
}
const pick = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, plausibleLead[k]!]))
const leadKeys = ['name', 'phone', 'email', 'serviceInterest', 'campaign', 'notes', 'priority']
const shapes = {
  create: {
    fields: pick([...leadKeys, 'source', 'assignedToUserId']),
    required: ['name', 'phone'],
  },
  patch: {
    fields: {
      ...pick([...leadKeys, 'status']),
      // Numbers no other lead here has (another lead's is a 409).
      phone: fc.constantFrom('98220 99999', '+44 20 7946 0958'),
      assignedToUserId: fc.constant(null),
    },
    required: [],
  },
  communicate: {
    fields: {
      ...pick(['leadId', 'type', 'direction', 'content', 'metadata']),
      status: fc.constantFrom('sent', 'delivered', 'read', 'failed', 'received', 'logged'),
    },
    required: ['leadId', 'type', 'direction', 'content'],
  },
}

/** Plausible bodies of a route, with one hostile value, or hostile keys mixed in. */
function bodyOf(shape: { fields: Record<string, fc.Arbitrary<unknown>>; required: string[] }) {
  const good = fc.record(shape.fields, { requiredKeys: shape.required })
  const names = Object.keys(shape.fields)
  return fc.oneof(
    { weight: 3, arbitrary: good },
    {
      weight: 2,
      arbitrary: fc
        .tuple(good, fc.constantFrom(...names), hostileValue)
        .map(([b, f, v]) => ({ ...b, [f]: v })),
    },
    fc.dictionary(fc.oneof(fc.constantFrom(...names), hostileString), hostileValue, { maxKeys: 5 }),
  )
}

describe('hostile lead bodies', () => {
  it.each([
    ['POST', '/api/leads', 'create'],
    ['PATCH', '/api/leads/LEAD', 'patch'],
    ['POST', '/api/communications', 'communicate'],
  ] as const)(
    '%s %s never answers 5xx, and stores only valid leads',
    async (method, path, shape) => {
      const body = bodyOf(shapes[shape])
      let accepted = 0
      await fc.assert(
        fc.asyncProperty(body, async (sent) => {
          const payload = JSON.parse(
            JSON.stringify(sent).replaceAll('"LEAD"', JSON.stringify(leadId)),
          )
          const res = await call(t.app, cookie, method, path.replace('LEAD', leadId), payload)
          expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBeLessThan(500)
          if (res.statusCode >= 400) expectError(res, res.statusCode)
          else accepted++
        }),
        { numRuns: RUNS },
      )
      // A fair share of plausible bodies get through to the database.
      expect(accepted).toBeGreaterThan(RUNS / 20)
      const rows = await queryRows<Record<string, unknown>>(
        t.db,
        sql`select id, hospital_id as "hospitalId", name, email, phone, status, source, priority,
                 service_interest as "serviceInterest", campaign, notes,
                 meta_lead_id as "metaLeadId", meta_form_id as "metaFormId",
                 assigned_to_user_id as "assignedToUserId", null as "assignedToName",
                 patient_id as "patientId", last_contact_at::text as "lastContactAt",
                 contact_attempts as "contactAttempts",
                 contact_limit_exceeded as "contactLimitExceeded",
                 created_at::text as "createdAt", updated_at::text as "updatedAt"
          from leads`,
      )
      for (const row of rows) {
        lead.strict().parse(row)
        expect(row.phone).toMatch(/^\+\d{8,15}$/)
        expect(String(row.name).trim()).toBe(row.name)
        expect(row.name).not.toBe('')
      }
    },
  )
})
