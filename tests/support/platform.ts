import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { browserHeaders } from './login'

/** One request to the super-admin API with a session cookie (or none). */
export function adminCall(
  app: FastifyInstance,
  cookie: string | undefined,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  body?: unknown,
): Promise<LightMyRequestResponse> {
  if (body !== undefined)
    return app.inject({
      method,
      url,
      headers: browserHeaders(cookie),
      payload: JSON.stringify(body),
    })
  // No body: no JSON content type either (as the client sends it).
  const headers = browserHeaders(cookie)
  delete headers['content-type']
  return app.inject({ method, url, headers })
}

/** A valid Add Hospital body with a unique email. */
export function newHospital(tag: string, extra: Record<string, unknown> = {}) {
  return {
    name: `Dhanvantari Clinic ${tag}`,
    email: `desk.${tag}@dhanvantari.test`,
    phone: '020 2553 4411',
    address: '7 FC Road, Shivajinagar, Pune 411005',
    ...extra,
  }
}
