import type { FastifyRequest } from 'fastify'
import { ownOrigin } from '../../http/same-origin'

/**
 * The URL a provider called, as it signed it (Twilio signs the full URL it was given): BASE_URL
 * (trailing slashes dropped) followed by the request's path and query exactly as received.
 * Behind a proxy or tunnel BASE_URL must be the public URL that the provider is configured
 * with, or every signature fails (403). Without BASE_URL (development), the origin the request
 * arrived on (its Host, X-Forwarded-* only from a trusted proxy) stands in.
 */
export function publicUrl(req: FastifyRequest, baseURL: string | undefined): string {
  const base = baseURL ? baseURL.replace(/\/+$/, '') : (ownOrigin(req, undefined) ?? '')
  return `${base}${req.url}`
}
