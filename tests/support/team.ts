import { sql } from 'drizzle-orm'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { AppDb } from '../../src/server/db/client'
import type { Team } from '../../src/shared/schemas/team'
import { browserHeaders } from './login'
import { lastMailTo } from './mail'
import { queryRows } from './test-app'

/** Issue 27: helpers of the team (Admin) tests. */

export function teamApi(app: FastifyInstance) {
  const send = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    cookie?: string,
    body?: unknown,
  ) =>
    app.inject({
      method,
      url,
      headers:
        body === undefined
          ? { ...(cookie ? { cookie } : {}), host: 'localhost', origin: 'http://localhost' }
          : browserHeaders(cookie),
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    })
  return {
    list: (cookie?: string) => send('GET', '/api/team', cookie),
    invite: (cookie: string | undefined, body: unknown) =>
      send('POST', '/api/team/invitations', cookie, body),
    resend: (cookie: string | undefined, id: string) =>
      send('POST', `/api/team/invitations/${id}/resend`, cookie),
    revoke: (cookie: string | undefined, id: string) =>
      send('DELETE', `/api/team/invitations/${id}`, cookie),
    update: (cookie: string | undefined, id: string, body: unknown) =>
      send('PATCH', `/api/team/members/${id}`, cookie, body),
    remove: (cookie: string | undefined, id: string) =>
      send('DELETE', `/api/team/members/${id}`, cookie),
    lookup: (token: string) => send('POST', '/api/public/invitations/lookup', undefined, { token }),
    accept: (token: string, password: string) =>
      send('POST', '/api/public/invitations/accept', undefined, { token, password }),
  }
}

export function teamOf(res: LightMyRequestResponse): Team {
  expect(res.statusCode, res.body).toBe(200)
  return res.json<Team>()
}

/** The token of the newest invitation email to this address (as the mailer was handed it). */
export async function invitationToken(db: AppDb, to: string): Promise<string> {
  const token = /\/invite#(\S+)/.exec(lastMailTo(db, to, 'team-invitation')?.text ?? '')?.[1]
  if (!token) throw new Error(`no invitation email to ${to}`)
  return token
}

export async function auditActions(db: AppDb, hospitalId: string): Promise<string[]> {
  const rows = await queryRows<{ action: string }>(
    db,
    sql`select action from audit_events where hospital_id = ${hospitalId} and action like 'team.%'
        order by created_at, id`,
  )
  return rows.map((r) => r.action)
}
