import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import { USER_AGENT } from '../../integrations/messaging/http'
import { checkOutboundHost, OutboundRefused } from '../../net/outbound-host'

/*
 * A call recording's download from its provider (issue 41), as a stream. The provider names
 * the file's URL (Exotel's RecordingUrl; Twilio redirects its media to a signed URL), so every
 * host but the operator's own provider base URLs (EXOTEL_API_URL, TWILIO_VOICE_API_URL: the
 * trusted origins) passes the one outbound-host guard (net/outbound-host.ts, decision 042):
 * HTTPS on port 443 only, every address public, and the connection made to the checked address
 * (pinned), never to the name again. Redirects are followed a few times, each through the
 * guard; the provider's credentials go only to the hosts the caller allows.
 */

export type RecordingFailureKind = 'missing' | 'refused' | 'busy' | 'blocked'

export class RecordingDownloadError extends Error {
  override name = 'RecordingDownloadError'
  constructor(
    readonly kind: RecordingFailureKind,
    message: string,
  ) {
    super(message)
  }
}

export interface RecordingRequest {
  url: string
  /** An Authorization header for the hosts `sendAuth` accepts. */
  authorization?: string | undefined
  sendAuth?: ((url: URL) => boolean) | undefined
  /** Origins (scheme://host:port) that skip the guard: the operator's provider base URLs. */
  trustedOrigins: readonly string[]
  signal: AbortSignal
  /** Until the answer's headers arrive. */
  timeoutMs?: number | undefined
}

const MAX_REDIRECTS = 3
const HEADERS_TIMEOUT_MS = 15_000

/** The recording's answer (200), its body to be streamed; throws RecordingDownloadError. */
export async function openRecording(req: RecordingRequest): Promise<IncomingMessage> {
  let url = parseUrl(req.url)
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const res = await requestOnce(url, req)
    const status = res.statusCode ?? 0
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume()
      url = parseUrl(new URL(res.headers.location, url).toString())
      continue
    }
    if (status === 200) return res
    res.resume()
    if (status === 404) throw new RecordingDownloadError('missing', 'not at the provider yet')
    if (status === 429 || status >= 500) throw new RecordingDownloadError('busy', `HTTP ${status}`)
    throw new RecordingDownloadError('refused', `HTTP ${status}`)
  }
  throw new RecordingDownloadError('refused', 'too many redirects')
}

function parseUrl(raw: string): URL {
  try {
    const url = new URL(raw)
    if (url.protocol === 'https:' || url.protocol === 'http:') return url
  } catch {
    // Below.
  }
  throw new RecordingDownloadError('blocked', 'not an http(s) URL')
}

async function pinned(url: URL, trusted: readonly string[]): Promise<LookupFunction | undefined> {
  if (trusted.includes(url.origin)) return undefined
  if (url.protocol !== 'https:' || (url.port !== '' && url.port !== '443'))
    throw new RecordingDownloadError('blocked', 'only HTTPS on port 443')
  try {
    const checked = await checkOutboundHost(url.hostname, 443, { ports: [443] })
    const family = checked.address.includes(':') ? 6 : 4
    return ((_host: string, options: { all?: boolean }, callback: LookupCallback) => {
      if (options.all) callback(null, [{ address: checked.address, family }])
      else callback(null, checked.address, family)
    }) as unknown as LookupFunction
  } catch (error) {
    if (error instanceof OutboundRefused) throw new RecordingDownloadError('blocked', error.reason)
    throw error
  }
}

type LookupCallback = (error: Error | null, address: unknown, family?: number) => void

async function requestOnce(url: URL, req: RecordingRequest): Promise<IncomingMessage> {
  const lookup = await pinned(url, req.trustedOrigins)
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'audio/*' }
  if (req.authorization && req.sendAuth?.(url)) headers.authorization = req.authorization
  const options: RequestOptions = {
    method: 'GET',
    headers,
    signal: req.signal,
    ...(lookup ? { lookup } : {}),
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise<IncomingMessage>((resolve, reject) => {
    let timedOut = false
    const request = send(url, options, (res) => {
      clearTimeout(timer)
      resolve(res)
    })
    // Only until the headers: the body then streams for as long as the job's lease allows.
    const timer = setTimeout(() => {
      timedOut = true
      request.destroy()
    }, req.timeoutMs ?? HEADERS_TIMEOUT_MS)
    request.on('error', (error) => {
      clearTimeout(timer)
      if (req.signal.aborted) reject(error)
      else reject(new RecordingDownloadError('busy', timedOut ? 'TIMEOUT' : 'CONNECTION'))
    })
    request.end()
  })
}
