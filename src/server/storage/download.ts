import type { FastifyReply } from 'fastify'
import type { ObjectStorage } from './storage'

/** Types a stored file may be served as; anything else (html, svg, xml, js…) goes as bytes. */
const SAFE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'video/mp4',
  'video/quicktime',
  'video/webm',
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/plain',
  'text/csv',
  'application/json',
  'application/zip',
  'application/gzip',
  'application/octet-stream',
])

/** contentType when it is one of the safe types (text with charset=utf-8), else octet-stream. */
export function servedContentType(contentType: string): string {
  const base = contentType.split(';')[0]!.trim().toLowerCase()
  if (!SAFE_TYPES.has(base)) return 'application/octet-stream'
  return base.startsWith('text/') || base === 'application/json' ? `${base}; charset=utf-8` : base
}

/** filename="…" (ASCII, quotes and backslashes replaced) and filename*=UTF-8''… (RFC 6266). */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%;]/g, '_').trim() || 'download'
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`
}

/**
 * Streams a stored file as a download: attachment, a safe type, nosniff, never cached by a
 * shared cache. A missing object is the storage's 404. Call only from a route that has checked
 * the caller may see the file (tenant, permission).
 */
export async function sendStoredFile(
  reply: FastifyReply,
  opts: {
    storage: ObjectStorage
    key: string
    filename: string
    contentType: string
    size?: number
  },
): Promise<FastifyReply> {
  const stream = await opts.storage.get(opts.key)
  void reply
    .header('content-disposition', contentDisposition(opts.filename))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .type(servedContentType(opts.contentType))
  if (opts.size !== undefined) void reply.header('content-length', String(opts.size))
  return reply.send(stream)
}
