import type { FastifyReply, FastifyRequest } from 'fastify'
import { fromNodeHeaders } from 'better-auth/node'
import type { ApiErrorBody } from '../../shared/api-error'
import { redirectPathOr, safeRedirectPath } from '../../shared/safe-redirect'
import { rejectInvalidText } from '../http/parse'
import { ownOrigin } from '../http/same-origin'
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

/** Every parameter through which better-auth can be told where to send the browser. */
export const REDIRECT_PARAMS = [
  'callbackURL',
  'errorCallbackURL',
  'newUserCallbackURL',
  'redirectTo',
] as const

/**
 * The query with every redirect parameter held to the one rule (shared/safe-redirect.ts):
 * a path on this site stays, anything else (and a repeated parameter) becomes '/'.
 */
export function safeRedirectQuery(url: URL): void {
  for (const name of REDIRECT_PARAMS) {
    const values = url.searchParams.getAll(name)
    if (values.length === 0) continue
    url.searchParams.set(name, redirectPathOr(values.length === 1 ? values[0] : null))
  }
}

/** A JSON body with every redirect field held to the same rule. */
export function safeRedirectBody(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) }
  for (const name of REDIRECT_PARAMS) {
    if (name in copy) copy[name] = redirectPathOr(copy[name])
  }
  return copy
}

/**
 * A better-auth endpoint called on behalf of a request: the URL is built from the server's
 * view of the request (Fastify's protocol and host, which honour TRUST_PROXY), redirect
 * parameters are held to the one rule before better-auth sees them, and better-auth trusts
 * only our origin as well (auth.ts trustedOriginsFor): two locks on every redirect.
 */
export async function callAuthAt(
  auth: Auth,
  req: FastifyRequest,
  target: {
    method: string
    pathAndQuery: string
    body?: unknown
    /** Without the caller's cookies: better-auth acts for no session. */
    anonymous?: true
  },
): Promise<AuthResponse> {
  const url = new URL(target.pathAndQuery, `${req.protocol}://${req.host}`)
  safeRedirectQuery(url)
  const hasBody = target.method !== 'GET' && target.method !== 'HEAD' && target.body !== undefined
  if (hasBody) rejectInvalidText(target.body)
  const headers = authHeaders(req)
  headers.delete('content-length')
  if (target.anonymous) headers.delete('cookie')
  if (hasBody) headers.set('content-type', 'application/json')
  const response = await auth.handler(
    new Request(url, {
      method: target.method,
      headers,
      ...(hasBody ? { body: JSON.stringify(safeRedirectBody(target.body)) } : {}),
    }),
  )
  const baseURL = typeof auth.options.baseURL === 'string' ? auth.options.baseURL : undefined
  return readAuthResponse(response, ownOrigin(req, baseURL))
}

/** Hands a Fastify request to better-auth's web handler; the caller sends the answer on. */
export function callAuth(auth: Auth, req: FastifyRequest): Promise<AuthResponse> {
  return callAuthAt(auth, req, { method: req.method, pathAndQuery: req.url, body: req.body })
}

/**
 * A redirect target better-auth answered, kept only when it stays on our origin (a path
 * on this site, or an absolute URL of our origin); anything else becomes '/'. Never reached
 * while the two locks above hold; the last net in case a future endpoint builds its own URL.
 */
function onSite(target: string, origin: string | null): string {
  if (safeRedirectPath(target)) return target
  try {
    if (origin && new URL(target).origin === origin) return target
  } catch {
    // not an absolute URL
  }
  return '/'
}

async function readAuthResponse(response: Response, origin: string | null): Promise<AuthResponse> {
  const headers = new Headers(response.headers)
  const location = headers.get('location')
  if (location !== null) headers.set('location', onSite(location, origin))
  const text = await response.text()
  let json: unknown = null
  try {
    json = text ? JSON.parse(text) : null
  } catch {
    // not JSON (a redirect's empty body)
  }
  const url = (json as { url?: unknown } | null)?.url
  if (json && typeof json === 'object' && typeof url === 'string') {
    const kept = onSite(url, origin)
    if (kept !== url) {
      json = { ...json, url: kept }
      return { status: response.status, headers, json, text: JSON.stringify(json) }
    }
  }
  return { status: response.status, headers, json, text }
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
