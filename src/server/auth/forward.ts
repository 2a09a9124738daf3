import type { FastifyReply, FastifyRequest } from 'fastify'
import { fromNodeHeaders } from 'better-auth/node'
import type { ApiErrorBody } from '../../shared/api-error'
import { rejectInvalidText } from '../http/parse'
import type { Auth } from './auth'
import { CLIENT_IP_HEADER } from './client-ip'

/** Headers a client could use to tell better-auth its own address, host or scheme. */
const clientClaims = /^(x-forwarded-.*|forwarded|x-real-ip|x-client-ip|cf-connecting-ip)$/i

/**
 * The headers better-auth sees: the client's, minus anything that claims an address, host or
 * scheme, plus the server's own view of them (which honours TRUST_PROXY). Session IPs,
 * better-auth's limits and the links it builds therefore never come from client claims.
 */
export function authHeaders(req: FastifyRequest): Headers {
  const headers = fromNodeHeaders(req.headers)
  for (const name of [...headers.keys()]) if (clientClaims.test(name)) headers.delete(name)
  headers.set('host', req.host)
  headers.set('x-forwarded-proto', req.protocol)
  headers.set(CLIENT_IP_HEADER, req.ip)
  return headers
}

/**
 * Removes every `token` field at any depth (sign-in, get-session, list-sessions...): the
 * session token travels only in the HttpOnly cookie, never where page scripts can read it.
 */
export function withoutTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTokens)
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      if (key !== 'token') out[key] = withoutTokens(item)
    }
    return out
  }
  return value
}

export interface AuthResponse {
  status: number
  headers: Headers
  /** The JSON body better-auth answered (tokens included; never sent on as is), or null. */
  json: unknown
  text: string
}

/** Hands a Fastify request to better-auth's web handler; the caller sends the answer on. */
export async function callAuth(auth: Auth, req: FastifyRequest): Promise<AuthResponse> {
  const url = new URL(req.url, `${req.protocol}://${req.host}`)
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.body !== undefined
  if (hasBody) rejectInvalidText(req.body)
  const response = await auth.handler(
    new Request(url, {
      method: req.method,
      headers: authHeaders(req),
      ...(hasBody ? { body: JSON.stringify(req.body) } : {}),
    }),
  )
  const text = await response.text()
  let json: unknown = null
  try {
    json = text ? JSON.parse(text) : null
  } catch {
    // not JSON (a redirect's empty body)
  }
  return { status: response.status, headers: response.headers, json, text }
}

/** Sends better-auth's answer: errors in our one shape, JSON without tokens. */
export function sendAuthResponse(reply: FastifyReply, res: AuthResponse): FastifyReply {
  void reply.status(res.status)
  copyHeaders(res.headers, reply)
  if (res.status >= 400) {
    return reply.type('application/json; charset=utf-8').send(errorBody(res.status, res.json))
  }
  if (res.json !== null) return reply.send(JSON.stringify(withoutTokens(res.json)))
  return reply.send(res.text.length ? res.text : null)
}

/** The user a better-auth answer names ({ user: { id, email } }), if any. */
export function userOf(json: unknown): { id?: string; email?: string } {
  const user = (json as { user?: unknown } | null)?.user
  if (!user || typeof user !== 'object') return {}
  const { id, email } = user as { id?: unknown; email?: unknown }
  return {
    ...(typeof id === 'string' ? { id } : {}),
    ...(typeof email === 'string' ? { email } : {}),
  }
}

const fallback: Record<number, { code: string; message: string }> = {
  400: { code: 'BAD_REQUEST', message: 'The request is not valid' },
  401: { code: 'UNAUTHENTICATED', message: 'Please sign in to continue' },
  403: { code: 'FORBIDDEN', message: 'You may not do this' },
  404: { code: 'NOT_FOUND', message: 'Not found' },
  429: { code: 'RATE_LIMITED', message: 'Too many requests. Please wait a moment and try again.' },
}

/** better-auth's error (or its empty body) in our one error shape, {message, code}. */
function errorBody(status: number, json: unknown): ApiErrorBody {
  const base =
    status >= 500
      ? { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' }
      : (fallback[status] ?? { code: 'BAD_REQUEST', message: 'The request could not be completed' })
  if (status >= 500 || !json || typeof json !== 'object') return base
  const parsed = json as { message?: unknown; code?: unknown }
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
