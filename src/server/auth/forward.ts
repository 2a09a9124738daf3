import type { FastifyReply, FastifyRequest } from 'fastify'
import { fromNodeHeaders } from 'better-auth/node'
import type { ApiErrorBody } from '../../shared/api-error'
import { rejectInvalidText } from '../http/parse'
import type { Auth } from './auth'
import { CLIENT_IP_HEADER } from './client-ip'

/**
 * The session token travels only in the HttpOnly cookie: it is removed from JSON bodies
 * (sign-in answers it by default), so page scripts never see it.
 */
function stripSessionToken(text: string): string | null {
  if (!text.length) return null
  if (!text.includes('"token"')) return text
  try {
    const body = JSON.parse(text) as unknown
    if (body && typeof body === 'object' && 'token' in body) {
      const rest = { ...(body as Record<string, unknown>) }
      delete rest.token
      return JSON.stringify(rest)
    }
  } catch {
    // not JSON: pass through
  }
  return text
}

/** Hands a Fastify request to better-auth's web handler and copies its response back. */
export async function forwardToAuth(
  auth: Auth,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const url = new URL(req.url, `${req.protocol}://${req.host}`)
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.body !== undefined
  if (hasBody) rejectInvalidText(req.body)
  const headers = fromNodeHeaders(req.headers)
  // better-auth's per-IP limits read the client address from this header; only we set it.
  headers.set(CLIENT_IP_HEADER, req.ip)
  const request = new Request(url, {
    method: req.method,
    headers,
    ...(hasBody ? { body: JSON.stringify(req.body) } : {}),
  })
  const response = await auth.handler(request)
  void reply.status(response.status)
  copyHeaders(response.headers, reply)
  const text = await response.text()
  if (response.status >= 400) {
    void reply.type('application/json; charset=utf-8').send(errorBody(response.status, text))
    return
  }
  void reply.send(stripSessionToken(text))
}

const fallback: Record<number, { code: string; message: string }> = {
  400: { code: 'BAD_REQUEST', message: 'The request is not valid' },
  401: { code: 'UNAUTHENTICATED', message: 'Please sign in to continue' },
  403: { code: 'FORBIDDEN', message: 'You may not do this' },
  404: { code: 'NOT_FOUND', message: 'Not found' },
  429: { code: 'RATE_LIMITED', message: 'Too many requests. Please wait a moment and try again.' },
}

/** better-auth's error (or its empty body) in our one error shape, {message, code}. */
function errorBody(status: number, text: string): ApiErrorBody {
  const base =
    status >= 500
      ? { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' }
      : (fallback[status] ?? { code: 'BAD_REQUEST', message: 'The request could not be completed' })
  if (status >= 500) return base
  let parsed: { message?: unknown; code?: unknown } = {}
  try {
    parsed = text ? (JSON.parse(text) as typeof parsed) : {}
  } catch {
    // not JSON: keep the fallback
  }
  return {
    message: typeof parsed.message === 'string' && parsed.message ? parsed.message : base.message,
    code: typeof parsed.code === 'string' && parsed.code ? parsed.code : base.code,
  }
}

export function copyHeaders(headers: Headers, reply: FastifyReply): void {
  headers.forEach((value, key) => {
    if (key === 'set-cookie') return
    if (key === 'content-length') return
    void reply.header(key, value)
  })
  const cookies = headers.getSetCookie()
  if (cookies.length) void reply.header('set-cookie', cookies)
}
