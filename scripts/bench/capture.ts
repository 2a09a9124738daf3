// A PostgreSQL wire-protocol tap between the server under test and PostgreSQL: it records
// the statements each connection sends (Parse text and Bind parameters, or simple Query)
// and counts round trips (Sync and Query messages). Whatever the checkout's code, the bench
// then knows the exact SQL a request ran and can run it again directly.
import { connect, createServer, type Server, type Socket } from 'node:net'

export type WireEvent =
  | { conn: number; kind: 'sql'; text: string; params: (string | null)[] }
  | { conn: number; kind: 'roundtrip' }

export interface Tap {
  url: string
  events: WireEvent[]
  close: () => Promise<void>
}

const SSL_REQUEST = 80877103
const GSS_REQUEST = 80877104

function cstring(buf: Buffer, at: number): [string, number] {
  const end = buf.indexOf(0, at)
  return [buf.toString('utf8', at, end), end + 1]
}

/** Parameters of a Bind message, as text (node-pg sends text format). */
function bindParams(body: Buffer): (string | null)[] {
  let at = cstring(body, cstring(body, 0)[1])[1] // portal, statement
  const formats = body.readInt16BE(at)
  at += 2 + 2 * formats
  const count = body.readInt16BE(at)
  at += 2
  const params: (string | null)[] = []
  for (let i = 0; i < count; i++) {
    const len = body.readInt32BE(at)
    at += 4
    if (len < 0) params.push(null)
    else {
      params.push(body.toString('utf8', at, at + len))
      at += len
    }
  }
  return params
}

function tapConnection(client: Socket, upstreamUrl: URL, conn: number, events: WireEvent[]) {
  const upstream = connect(Number(upstreamUrl.port || 5432), upstreamUrl.hostname)
  client.pipe(upstream)
  upstream.pipe(client)
  const end = () => {
    client.destroy()
    upstream.destroy()
  }
  client.on('error', end)
  upstream.on('error', end)
  client.on('close', end)
  upstream.on('close', end)

  let buffered = Buffer.alloc(0)
  let startup = true
  let parsed = '' // text of the last Parse, bound by the next Bind
  client.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk])
    for (;;) {
      if (startup) {
        if (buffered.length < 8) return
        const len = buffered.readInt32BE(0)
        if (buffered.length < len) return
        const code = buffered.readInt32BE(4)
        if (code !== SSL_REQUEST && code !== GSS_REQUEST) startup = false
        buffered = buffered.subarray(len)
        continue
      }
      if (buffered.length < 5) return
      const type = String.fromCharCode(buffered[0]!)
      const len = buffered.readInt32BE(1)
      if (buffered.length < len + 1) return
      const body = buffered.subarray(5, len + 1)
      buffered = buffered.subarray(len + 1)
      if (type === 'Q') {
        events.push({ conn, kind: 'sql', text: cstring(body, 0)[0], params: [] })
        events.push({ conn, kind: 'roundtrip' })
      } else if (type === 'P') {
        parsed = cstring(body, cstring(body, 0)[1])[0]
      } else if (type === 'B') {
        events.push({ conn, kind: 'sql', text: parsed, params: bindParams(body) })
      } else if (type === 'S') {
        events.push({ conn, kind: 'roundtrip' })
      }
    }
  })
}

/** Listens on a free port and forwards to the PostgreSQL server in `databaseUrl`. */
export async function startTap(databaseUrl: string): Promise<Tap> {
  const upstream = new URL(databaseUrl)
  const events: WireEvent[] = []
  let next = 0
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    tapConnection(socket, upstream, next++, events)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('bench: tap has no port')
  const url = new URL(databaseUrl)
  url.hostname = '127.0.0.1'
  url.port = String(address.port)
  return {
    url: url.toString(),
    events,
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

export interface Statement {
  text: string
  params: (string | null)[]
}

export interface RequestSql {
  /** Round trips to PostgreSQL during the request, over every connection. */
  roundTrips: number
  /** The tenant transaction that read the table: BEGIN .. COMMIT as sent. */
  transaction: Statement[]
}

/**
 * The SQL of the request whose events are `events` (only that request was running): the
 * tenant transaction around its first read of `table`.
 */
export function requestSql(events: WireEvent[], table = 'patients'): RequestSql {
  const roundTrips = events.filter((e) => e.kind === 'roundtrip').length
  const statements = events.filter((e) => e.kind === 'sql')
  const reads = new RegExp(`from "${table}"`, 'i')
  const read = statements.findIndex((s) => reads.test(s.text))
  if (read < 0) throw new Error(`bench: the request read no ${table}`)
  const conn = statements[read]!.conn
  const own = statements.filter((s) => s.conn === conn)
  const at = own.indexOf(statements[read]!)
  let first = at
  while (first > 0 && !/^\s*begin/i.test(own[first]!.text)) first--
  let last = at
  while (last < own.length - 1 && !/^\s*(commit|rollback)/i.test(own[last]!.text)) last++
  return {
    roundTrips,
    transaction: own.slice(first, last + 1).map(({ text, params }) => ({ text, params })),
  }
}
