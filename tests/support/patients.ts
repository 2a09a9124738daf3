import { sql } from 'drizzle-orm'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { AppDb } from '../../src/server/db/client'
import { type Patient, patient } from '../../src/shared/schemas/patients'
import { browserHeaders } from './login'
import { queryRows } from './test-app'

/** The payload the Manual Patient entry form sends (spec section 3). */
export function manualPatientPayload(
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name: 'Meera Joshi',
    email: 'Meera.Joshi@Example.com',
    phone: '98765 43210',
    dateOfBirth: '1988-04-12',
    gender: 'female',
    address: '14, Lane 5, Koregaon Park, Pune 411001',
    emergencyContact: 'Rohan Joshi (spouse) +91 98220 12345',
    medicalHistory: 'Hypothyroidism, on thyroxine 50 mcg',
    allergies: 'Penicillin',
    insuranceProvider: 'Star Health',
    insuranceNumber: 'SH1234567890',
    ...overrides,
  }
}

export function listPatients(
  app: FastifyInstance,
  cookie: string,
  query = '',
): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url: `/api/patients${query}`, headers: { cookie } })
}

export function getPatient(
  app: FastifyInstance,
  cookie: string | undefined,
  id: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'GET',
    url: `/api/patients/${id}`,
    headers: cookie ? { cookie } : {},
  })
}

export function createPatient(
  app: FastifyInstance,
  cookie: string | undefined,
  payload: unknown,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/patients/manual',
    headers: browserHeaders(cookie),
    payload: JSON.stringify(payload),
  })
}

export function patchPatient(
  app: FastifyInstance,
  cookie: string | undefined,
  id: string,
  payload: unknown,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'PATCH',
    url: `/api/patients/${id}`,
    headers: browserHeaders(cookie),
    payload: JSON.stringify(payload),
  })
}

/** Parses a patient list response strictly with the shared schema. */
export function patientsOf(res: LightMyRequestResponse): Patient[] {
  if (res.statusCode !== 200) throw new Error(`expected 200, got ${res.statusCode}: ${res.body}`)
  return patient.strict().array().parse(res.json())
}

/** A stored patient row read as the (RLS-exempt) connecting role, for before/after checks. */
export async function storedPatient(
  db: AppDb,
  id: string,
): Promise<Record<string, unknown> | undefined> {
  const [row] = await queryRows(db, sql`select * from patients where id = ${id}`)
  return row
}

export interface AuditRow {
  hospital_id: string
  actor_user_id: string | null
  action: string
  entity_type: string
  entity_id: string | null
  summary: string
}

/** Audit rows about one entity, oldest first. */
export async function auditRowsFor(db: AppDb, entityId: string): Promise<AuditRow[]> {
  return queryRows<AuditRow>(
    db,
    sql`select hospital_id, actor_user_id, action, entity_type, entity_id, summary
        from audit_events where entity_id = ${entityId} order by created_at, id`,
  )
}

export async function countRows(db: AppDb, table: 'patients' | 'audit_events'): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${sql.identifier(table)}`,
  )
  return row?.n ?? -1
}
