import type { FastifyError, FastifyInstance } from 'fastify'
import type { ApiErrorBody } from '../../shared/api-error'
import { matchAppPath } from '../../shared/app-routes'
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db/unavailable'
import { AppError } from './app-error'

const fastifyCodes: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: 'BAD_REQUEST',
    message: 'The request body is not valid JSON',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'BAD_REQUEST',
    message: 'The request body is empty but the content type says JSON',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The request body is larger than 1 MB',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Send the body as application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'BAD_REQUEST',
    message: 'The Content-Length header does not match the body',
  },
}

/** Seconds a client is asked to wait when the database is away. */
const RETRY_AFTER_S = 5

/** One error body for every failure; never a stack trace. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, req, reply) => {
    let status: number
    let body: ApiErrorBody
    if (isDatabaseUnavailable(error)) {
      // PostgreSQL or PgBouncer away: a clear 503 the client may retry, not a 500. The pool
      // reconnects by itself when it is back.
      req.log.warn({ err: error }, 'database unavailable')
      return reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_S))
        .type('application/json; charset=utf-8')
        .send({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'DATABASE_UNAVAILABLE' })
    }
    if (error instanceof AppError) {
      status = error.status
      body = {
        message: error.message,
        code: error.code,
        ...(error.issues ? { issues: error.issues } : {}),
      }
    } else {
      const fe = error as FastifyError
      const known = fe.code ? fastifyCodes[fe.code] : undefined
      const s = fe.statusCode ?? 500
      if (known) {
        status = s
        body = { message: known.message, code: known.code }
      } else if (s === 429) {
        status = 429
        body = {
          message: 'Too many requests. Please wait a moment and try again.',
          code: 'RATE_LIMITED',
        }
      } else if (s >= 400 && s < 500) {
        status = s
        body = { message: fe.message, code: 'BAD_REQUEST' }
      } else {
        status = 500
        body = { message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' }
      }
    }
    if (status >= 500) req.log.error({ err: error }, 'request failed')
    void reply.status(status).type('application/json; charset=utf-8').send(body)
  })
}

/**
 * Unknown routes: under /api a JSON 404. Any other GET gets the SPA's index.html (when a
 * built client is served) so the client router shows the page or its own '404 Page Not
 * Found': with 200 for a page the app has (shared/app-routes), with 404 for any other path,
 * so crawlers and monitors see a missing page as missing.
 */
export function registerNotFound(app: FastifyInstance, serveSpa: boolean): void {
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '/'
    const isApi = path === '/api' || path.startsWith('/api/')
    // A missing file (an old tab asking for a chunk replaced by a deploy) is a real 404,
    // so the client can reload instead of parsing HTML as JavaScript.
    const isFile = path.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(path)
    if (serveSpa && !isApi && !isFile && (req.method === 'GET' || req.method === 'HEAD')) {
      return reply
        .status(matchAppPath(path) ? 200 : 404)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .sendFile('index.html')
    }
    return reply
      .status(404)
      .send({ message: `No route for ${req.method} ${path}`, code: 'NOT_FOUND' })
  })
}
