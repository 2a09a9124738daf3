import type { Writable } from 'node:stream'
import {
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify'
import { AppError } from './app-error'

/**
 * Logs carry no patient data and no secrets (ASVS 16.2.5, DPDP Act): requests are logged by
 * method and path only (search texts and cursors live in the query string), known secret
 * fields are redacted, and database errors lose their bound parameters and value-bearing
 * messages (e.g. 'invalid input syntax for type uuid: "<value>"').
 */

/** The path of a URL without its query string. */
export function pathOnly(url: string): string {
  const q = url.indexOf('?')
  return q === -1 ? url : url.slice(0, q)
}

const SQLSTATE = /^[0-9A-Z]{5}$/

function isDatabaseError(e: Record<string, unknown>): boolean {
  return (
    ('query' in e && 'params' in e) ||
    typeof e.severity === 'string' ||
    (typeof e.code === 'string' && SQLSTATE.test(e.code))
  )
}

/** Stack frames only: the first line of a stack repeats the message. */
function frames(stack: unknown): string | undefined {
  if (typeof stack !== 'string') return undefined
  return stack
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .join('\n')
}

type Logged = Record<string, unknown>

const IDENTIFIER = /^[A-Za-z_$][\w$.]{0,59}$/

/**
 * The error's class: its constructor's name, or its `name` where the class says little
 * (AbortSignal.timeout's DOMException is a TimeoutError, a plain Error may be named).
 */
function errorType(error: object): string {
  const ctor = (error as Error).constructor?.name
  const name = (error as Error).name
  const type = !ctor || ctor === 'Error' || ctor === 'DOMException' ? name || ctor : ctor
  return typeof type === 'string' && IDENTIFIER.test(type) ? type : 'Error'
}

/** One error, and its causes, made safe to log. */
export function safeError(error: unknown, depth = 0): Logged | undefined {
  if (!error || typeof error !== 'object' || depth > 5) return undefined
  const e = error as Record<string, unknown>
  const type = errorType(error)
  const cause = safeError(e.cause, depth + 1)
  if (isDatabaseError(e)) {
    // The SQL text has placeholders ($1...), never values; everything else may carry values.
    return {
      type,
      database: true,
      ...(typeof e.query === 'string' ? { query: e.query.slice(0, 2000) } : {}),
      ...pick(e, ['code', 'severity', 'routine', 'constraint', 'table', 'column', 'schema']),
      stack: frames(e.stack),
      ...(cause ? { cause } : {}),
    }
  }
  return {
    type,
    message: typeof e.message === 'string' ? e.message : String(error),
    ...pick(e, ['code', 'statusCode']),
    stack: typeof e.stack === 'string' ? e.stack : undefined,
    ...(cause ? { cause } : {}),
  }
}

/**
 * Marks an error whose message was written for users, without row data or values (e.g.
 * `readonly [PUBLIC_MESSAGE] = true` in its class): errorText keeps that message.
 */
export const PUBLIC_MESSAGE: unique symbol = Symbol.for('arogya.publicMessage')

function hasPublicMessage(error: unknown): error is Error {
  return (
    error instanceof AppError ||
    (error instanceof Error && (error as { [PUBLIC_MESSAGE]?: unknown })[PUBLIC_MESSAGE] === true)
  )
}

/** Credentials in URLs, bearer tokens and `token=` parameters, even in a message for users. */
function withoutCredentials(text: string): string {
  return text
    .replace(/(\w+:\/\/)[^/\s@]*@/g, '$1[redacted]@')
    .replace(/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]')
    .replace(
      /\b(access_token|token|secret|password|api_key|apikey|key|signature)=[^&\s]+/gi,
      '$1=[redacted]',
    )
}

const CODE = /^[A-Za-z0-9_.-]{1,40}$/

/** The first code on the error's cause chain (a SQLSTATE, an errno name, a provider's code). */
function firstCode(logged: Logged | undefined): string | undefined {
  for (let e = logged, depth = 0; e && depth < 6; depth++) {
    const code = e.code
    if (typeof code === 'number' && Number.isFinite(code)) return String(code)
    if (typeof code === 'string' && CODE.test(code)) return code
    e = e.cause as Logged | undefined
  }
  return undefined
}

/**
 * The one text that may be stored or shown about a failure (a job's last_error, job logs, an
 * API's message): its class and code, e.g. `DrizzleQueryError (57014)`, `TimeoutError`,
 * `GraphError (190)`; never the message, which for a failed statement carries its bound
 * values ("Failed query: ... params: <name>,<phone>") or a value ('invalid input syntax for
 * type integer: "<value>"'). Errors written for users (AppError, and those marked with
 * PUBLIC_MESSAGE such as PermanentJobError) keep their message, without credentials, at most
 * 1,000 characters.
 */
export function errorText(error: unknown): string {
  if (hasPublicMessage(error)) return withoutCredentials(error.message).slice(0, 1000)
  const logged = safeError(error)
  if (!logged) return `Thrown ${typeof error}`
  // A DOMException's numeric code is a legacy constant (23 for a timeout): its name says it all.
  const code = error instanceof DOMException ? undefined : firstCode(logged)
  return code ? `${String(logged.type)} (${code})` : String(logged.type)
}

function pick(e: Record<string, unknown>, keys: string[]): Logged {
  const out: Logged = {}
  for (const key of keys) {
    const value = e[key]
    if (typeof value === 'string' || typeof value === 'number') out[key] = value
  }
  return out
}

/**
 * Field names that hold a provider token, key or password. pino matches exact paths, not
 * patterns (no `*token*`): a new secret field gets its name here.
 */
const secretFieldNames = [
  'token',
  'secret',
  'appSecret',
  'clientSecret',
  'accessToken',
  'refreshToken',
  'pageAccessToken',
  'authToken',
  'apiKey',
  'verifyToken',
  'webhookSecret',
  'smtpPassword',
  'password',
  'secretsKey',
]

/** Paths pino blanks out wherever a logged object carries them. */
export const redactedPaths = [
  ...new Set([
    'req.headers.cookie',
    'req.headers.authorization',
    'req.headers["x-api-key"]',
    'res.headers["set-cookie"]',
    'headers.cookie',
    'headers.authorization',
    '*.password',
    '*.newPassword',
    '*.currentPassword',
    '*.token',
    '*.secret',
    '*.apiKey',
    '*.accessToken',
    '*.authToken',
    '*.smtpUrl',
    'params',
    '*.params',
    // Hospitals' integration secrets (secrets/secrets.ts), at the top level and one level down.
    ...secretFieldNames.flatMap((name) => [name, `*.${name}`]),
  ]),
]

export type LogFormat = 'json' | 'pretty'

/** pino-pretty for a person at a terminal: one short line per entry. */
const prettyTransport = {
  target: 'pino-pretty',
  options: {
    colorize: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,reqId,req,res,responseTime',
    messageFormat:
      '{msg}{if req.method} {req.method} {req.url}{end}{if res.statusCode} → {res.statusCode}{end}',
  },
}

export function loggerOptions(
  level: string,
  stream?: Writable,
  format: LogFormat = 'json',
): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    ...(stream ? { stream } : format === 'pretty' ? { transport: prettyTransport } : {}),
    redact: { paths: redactedPaths, censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        method: req.method,
        url: pathOnly(req.url),
        remoteAddress: req.ip,
      }),
      // pino's type wants {type, message, stack}; a database error deliberately has no message.
      err: ((error: unknown) => safeError(error) ?? { type: 'unknown' }) as never,
    },
  }
}

/**
 * One line per request at info (issue 40 item 18): Fastify's "incoming request" goes to debug,
 * and its "request completed" line, written when the answer has gone, carries the method, the
 * path (no query), the status and the time taken. Error logs stay as Fastify writes them.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return
    request.log.debug({ req: request }, 'incoming request')
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return
    const line = { req: request, res: reply, responseTime: reply.elapsedTime }
    if (error) reply.log.error({ ...line, err: error }, 'request errored')
    else reply.log.info(line, 'request completed')
  }
}
