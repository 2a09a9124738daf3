import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/**
 * The scaffold of the messaging providers' fakes (twilio.ts, meta-whatsapp.ts, sendgrid.ts,
 * msg91.ts): a node:http server on 127.0.0.1 that records every request and can be told how
 * to answer the next sends: fail with a status and the provider's error code, throttle (429 +
 * Retry-After), answer slowly, or hang (never answer, until close()).
 */

export interface RecordedRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  raw: string
  /** Why the fake refused it as off-contract (null when it matched the contract). */
  refused: string[] | null
}

export interface Behaviour {
  /** Answer with this HTTP status and the provider's error body carrying `code`. */
  status?: number
  code?: number | string
  message?: string
  /** Retry-After header value (seconds or an HTTP date), e.g. with status 429. */
  retryAfter?: string
  /** Never answer (the socket stays open until the client gives up or close()). */
  hang?: boolean
  /** Answer (normally or as told) only after this long. */
  delayMs?: number
  /** How many sends this applies to (default 1). */
  times?: number
}

export interface Answer {
  status: number
  body?: unknown
  headers?: Record<string, string>
}

export type Handler = (
  request: RecordedRequest,
  /** The next scripted behaviour for a send (consumed), or undefined to answer normally. */
  takeBehaviour: () => Behaviour | undefined,
) => Answer | 'hang' | Promise<Answer | 'hang'>

export interface FakeHttp {
  url: string
  requests: RecordedRequest[]
  /** Scripts the next send(s). */
  behave: (behaviour: Behaviour) => void
  close: () => Promise<void>
}

export async function startHttpFake(handler: Handler, port = 0): Promise<FakeHttp> {
  const requests: RecordedRequest[] = []
  const script: Behaviour[] = []
  const sockets = new Set<Socket>()
  const takeBehaviour = (): Behaviour | undefined => {
    const next = script[0]
    if (!next) return undefined
    const left = (next.times ?? 1) - 1
    if (left <= 0) script.shift()
    else script[0] = { ...next, times: left }
    return next
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake')
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        raw: Buffer.concat(chunks).toString('utf8'),
        refused: null,
      }
      requests.push(recorded)
      let delay = 0
      const take = () => {
        const b = takeBehaviour()
        delay = b?.delayMs ?? 0
        return b
      }
      void Promise.resolve(handler(recorded, take))
        .then(async (answer) => {
          if (answer === 'hang') return
          if (delay > 0) await new Promise((r) => setTimeout(r, delay))
          reply(res, answer)
        })
        .catch((error: unknown) => reply(res, { status: 500, body: { error: String(error) } }))
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const { port: bound } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${bound}`,
    requests,
    behave: (b) => script.push(b),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}

function reply(res: ServerResponse, answer: Answer): void {
  if (res.destroyed) return
  const headers: Record<string, string> = { ...answer.headers }
  let text = ''
  if (answer.body !== undefined) {
    text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)
    headers['content-type'] ??= 'application/json'
  }
  res.writeHead(answer.status, headers)
  res.end(text)
}

/** Posts a webhook (a status callback) and answers its status code. */
export async function postCallback(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<number> {
  const response = await fetch(url, { method: 'POST', headers, body })
  await response.arrayBuffer()
  return response.status
}

/** Orders callbacks as a test asks: as given, reversed (out of order), or each sent twice. */
export function arrange<T>(items: T[], order: 'in-order' | 'reversed' | 'twice' = 'in-order'): T[] {
  if (order === 'reversed') return [...items].reverse()
  if (order === 'twice') return items.flatMap((i) => [i, i])
  return items
}
