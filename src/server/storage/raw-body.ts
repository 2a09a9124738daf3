import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from '../http/app-error'
import { tooLarge } from './object-key'

/**
 * Fastify's bodyLimit (1 MB app-wide) is only applied by its buffering parsers: the stream
 * that the parser below hands through is never counted or cut, so an upload route needs no
 * `bodyLimit` of its own (a 50 MB attachment streams through). Set `bodyLimit` on such a
 * route only to cap its JSON bodies; receiveUpload's maxBytes, enforced while streaming, is
 * the file's limit.
 */
/**
 * In the scope of the upload routes: `application/octet-stream` bodies reach the handler as
 * the untouched request stream (nothing buffered), for `receiveUpload({ body: request.body as
 * Readable, … })`. No `*` fallback: other types keep the scope's parsers (JSON) or get 415.
 * A reply sent before the body was read to the end (a refused file) closes the connection,
 * so the unread rest cannot be taken for the next request.
 */
export function registerRawUpload(app: FastifyInstance): void {
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) => {
    done(null, payload)
  })
  app.addHook('onSend', async (request, reply, payload) => {
    const body = request.body as { readableEnded?: boolean; pipe?: unknown } | undefined
    if (body && typeof body.pipe === 'function' && body.readableEnded === false) {
      void reply.header('connection', 'close')
    }
    return payload
  })
}

/**
 * The file name from the `X-Filename` header (URI-encoded, so any Unicode name travels in
 * ASCII). 400 ('filename') when missing or badly encoded; receiveUpload checks the name itself.
 */
export function readUploadFilename(request: FastifyRequest): string {
  const header = request.headers['x-filename']
  const raw = Array.isArray(header) ? header[0] : header
  const issue = (message: string) =>
    new AppError('VALIDATION', `Invalid file name: ${message}`, [{ path: 'filename', message }])
  if (raw === undefined || raw.trim() === '') {
    throw issue('Send the file name in the X-Filename header')
  }
  try {
    return decodeURIComponent(raw)
  } catch {
    throw issue('The X-Filename header is not a valid URI-encoded name')
  }
}

/**
 * Optional, before receiveUpload: a 413 at once when the request's Content-Length already says
 * the file is over maxBytes, without reading a byte of it. (A body without Content-Length, or
 * one that lies, is still cut at maxBytes while streaming.)
 */
export function assertDeclaredSize(request: FastifyRequest, maxBytes: number): void {
  const declared = Number(request.headers['content-length'])
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes)
}
