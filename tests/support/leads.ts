import { sql } from 'drizzle-orm'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { AppDb } from '../../src/server/db/client'
import { type Lead, lead, leadsPage, type LeadsPage } from '../../src/shared/schemas/leads'
import { browserHeaders } from './login'
import { queryRows } from './test-app'

let phoneSeq = 0
/**
 * A fresh Indian mobile number per call ('9xxxx xxxxx', valid as a mobile), so leads made by
 * one test never merge with another's. `base` keeps files apart when they share a database.
 */
export function uniqueMobile(base = 91_000): string {
  phoneSeq++
  return `9${String(base).padStart(5, '0')}${String(phoneSeq).padStart(4, '0')}`
}

/** '98765 43210' → '+919876543210'. */
export const e164 = (mobile: string) => `+91${mobile.replace(/\D/g, '')}`

/** The body the New Lead form sends. */
export function leadPayload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Anjali Menon',
    phone: uniqueMobile(),
    email: 'Anjali.Menon@Example.com',
    serviceInterest: 'Dental implants',
    campaign: null,
    notes: 'Prefers a morning slot',
    priority: 'high',
    source: 'walk-in',
    ...overrides,
  }
}

type Method = 'GET' | 'POST' | 'PATCH'

/** A request as the browser sends it: JSON only when there is a body. */
export function call(
  app: FastifyInstance,
  cookie: string | undefined,
  method: Method,
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  if (method === 'GET') return app.inject({ method, url, headers: cookie ? { cookie } : {} })
  const headers = browserHeaders(cookie)
  if (payload !== undefined)
    return app.inject({ method, url, headers, payload: JSON.stringify(payload) })
  delete headers['content-type']
  return app.inject({ method, url, headers })
}

export const postLead = (app: FastifyInstance, cookie: string | undefined, payload: unknown) =>
  call(app, cookie, 'POST', '/api/leads', payload)

export const patchLead = (
  app: FastifyInstance,
  cookie: string | undefined,
  id: string,
  payload: unknown,
) => call(app, cookie, 'PATCH', `/api/leads/${id}`, payload)

/** Creates a lead (201) and returns it, parsed strictly. */
export async function newLead(
  app: FastifyInstance,
  cookie: string,
  overrides: Record<string, unknown> = {},
): Promise<Lead> {
  const res = await postLead(app, cookie, leadPayload(overrides))
  if (res.statusCode !== 201) throw new Error(`create lead: ${res.statusCode} ${res.body}`)
  return lead.strict().parse(res.json<{ lead: unknown }>().lead)
}

/** GET /api/leads with a query string ('?status=new'), parsed strictly. */
export async function leadsPageOf(
  app: FastifyInstance,
  cookie: string,
  query = '',
): Promise<LeadsPage> {
  const res = await call(app, cookie, 'GET', `/api/leads${query}`)
  if (res.statusCode !== 200) throw new Error(`list leads: ${res.statusCode} ${res.body}`)
  return leadsPage.strict().parse(res.json())
}

/** A stored lead row read as the (RLS-exempt) connecting role. */
export async function storedLead(
  db: AppDb,
  id: string,
): Promise<Record<string, unknown> | undefined> {
  const [row] = await queryRows(db, sql`select * from leads where id = ${id}`)
  return row
}

export async function countOf(
  db: AppDb,
  table: 'leads' | 'communications' | 'patients' | 'audit_events',
): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${sql.identifier(table)}`,
  )
  return row?.n ?? -1
}

/** Everything a cross-tenant or forbidden request must leave untouched. */
export async function snapshot(db: AppDb): Promise<string> {
  const counts = await Promise.all(
    (['leads', 'communications', 'patients', 'audit_events'] as const).map((t) => countOf(db, t)),
  )
  const [latest] = await queryRows<{ v: string | null }>(
    db,
    sql`select max(updated_at)::text as v from leads`,
  )
  return JSON.stringify({ counts, latest: latest?.v ?? null })
}

/** Audit actions about one entity, oldest first. */
export async function auditActions(db: AppDb, entityId: string): Promise<string[]> {
  const rows = await queryRows<{ action: string }>(
    db,
    sql`select action from audit_events where entity_id = ${entityId} order by created_at, id`,
  )
  return rows.map((r) => r.action)
}
