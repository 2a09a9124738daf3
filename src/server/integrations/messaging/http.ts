import type { SendResult } from './provider'
import { APP_VERSION } from '../../../shared/version'

/** A send's refusal. */
export type SendFailure = Extract<SendResult, { ok: false }>

/**
 * One HTTP call of a messaging adapter, and the few answers every provider shares: a network
 * failure before the provider was reached, 429/5xx with Retry-After. The adapters map their own
 * error bodies on top.
 *
 * An abort (the pipeline's signal: a hung provider) and a connection that broke after the
 * request was written are *ambiguous*: the provider may have accepted the message. Those reject
 * (the promise throws) instead of returning 'temporary', so the pipeline reconciles (lookup or
 * the status callback) and never resends blindly. Only an error that proves the request never
 * reached the provider (refused connection, unknown host) is 'temporary'.
 */

export interface HttpAnswer {
  status: number
  headers: Headers
  text: string
  /** The body parsed as JSON, or null. */
  json: unknown
}

export type HttpOutcome = HttpAnswer | { unreachable: string }

/** Codes that prove the request never left this machine or never reached a server. */
const UNREACHED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
])

/** The most of an answer kept (an error body is small; a runaway one is cut). */
export const MAX_ANSWER_BYTES = 1024 * 1024

/** Who is calling, in the product/x.y.z form Meta's contract asks of a User-Agent. */
export const USER_AGENT = `ArogyaCRM/${APP_VERSION}`

export async function httpCall(
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  signal: AbortSignal,
): Promise<HttpOutcome> {
  signal.throwIfAborted()
  let response: Response
  try {
    response = await fetch(url, {
      ...init,
      headers: { 'user-agent': USER_AGENT, ...init.headers },
      signal,
      redirect: 'error',
    })
  } catch (error) {
    if (signal.aborted) throw signal.reason
    const code = errorCode(error)
    if (code && UNREACHED.has(code)) return { unreachable: code }
    throw error
  }
  const text = (await response.text()).slice(0, MAX_ANSWER_BYTES)
  return { status: response.status, headers: response.headers, text, json: parseJson(text) }
}

function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : null
  } catch {
    return null
  }
}

function errorCode(error: unknown): string | undefined {
  let e: unknown = error
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string') return code
    e = (e as { cause?: unknown }).cause
  }
  return undefined
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or past. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined
  const trimmed = header.trim()
  if (/^\d{1,7}$/.test(trimmed)) return Number(trimmed) * 1000
  const at = Date.parse(trimmed)
  if (Number.isNaN(at)) return undefined
  return at > now ? at - now : undefined
}

/** The provider could not be reached (nothing was sent): retried with backoff. */
export function unreachable(provider: string, code: string): SendFailure {
  return {
    ok: false,
    kind: 'temporary',
    code,
    reason: `${provider} could not be reached; the message will be retried.`,
  }
}

/** 429 or 5xx: busy or down; retried, after Retry-After when the provider gave one. */
export function busy(provider: string, answer: HttpAnswer, code?: string): SendFailure {
  return {
    ok: false,
    kind: 'temporary',
    code: code ?? `HTTP ${answer.status}`,
    reason:
      answer.status === 429
        ? `${provider} asked us to slow down; the message will be retried.`
        : `${provider} is having problems; the message will be retried.`,
    retryAfterMs: retryAfterMs(answer.headers.get('retry-after')),
  }
}

export const isBusy = (status: number): boolean => status === 429 || status >= 500

/** Basic auth header value. */
export const basicAuth = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`
