// Bench surroundings: the machine it ran on, a scratch PostgreSQL database, HTTP sign-in
// and the autocannon load itself.
import { createServer } from 'node:net'
import { cpus, loadavg, totalmem } from 'node:os'
import autocannon from 'autocannon'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'

export function machine(): string[] {
  const cpu = cpus()
  return [
    `CPU:    ${cpu[0]?.model ?? 'unknown'} x ${cpu.length} cores`,
    `Memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `Node:   ${process.version} (${process.platform} ${process.arch})`,
    `Date:   ${new Date().toISOString()}`,
    `Load:   ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (1/5/15 min; other work on the machine skews the figures)`,
  ]
}

/**
 * Creates a fresh scratch database next to the one in `serverUrl` and returns its URL
 * and a function dropping it, or null when no server answers.
 */
export async function scratchDatabase(
  serverUrl: string,
  name: string,
): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const admin = async <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 })
    await client.connect()
    try {
      return await fn(client)
    } finally {
      await client.end()
    }
  }
  try {
    await admin(async (c) => {
      await c.query(`drop database if exists ${name}`)
      await c.query(`create database ${name}`)
    })
  } catch (error) {
    const e = error as Error & { code?: string }
    // PostgreSQL errors carry a SQLSTATE code; connection failures do not.
    const what =
      e.code && /^[0-9A-Z]{5}$/.test(e.code) ? `refused to create ${name}` : 'did not answer'
    console.log(`  (PostgreSQL at ${redact(serverUrl)} ${what}: ${e.message})`)
    return null
  }
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () => admin(async (c) => void (await c.query(`drop database if exists ${name}`))),
  }
}

/** A free port on 127.0.0.1, so the app can be built with its baseURL before it listens. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (!address || typeof address === 'string') throw new Error('bench: no free port')
  return address.port
}

export async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ v: string }>('select version() as v')
    return rows[0]?.v.split(' on ')[0] ?? 'PostgreSQL'
  } finally {
    await client.end()
  }
}

export function redact(url: string): string {
  const u = new URL(url)
  if (u.password) u.password = '***'
  return u.toString()
}

/** Signs in over HTTP like the browser does and returns the Cookie header to send. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password }),
  })
  if (!res.ok) throw new Error(`bench: sign-in failed: ${res.status} ${await res.text()}`)
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  if (!cookie) throw new Error('bench: sign-in set no cookie')
  return cookie
}

export interface Load {
  rps: number
  p50: number
  p99: number
  requests: number
}

/**
 * autocannon against one URL, from a worker thread so the load generator does not share
 * the server's event loop; fails on any non-2xx answer or socket error.
 */
export async function load(
  url: string,
  cookie: string,
  connections: number,
  seconds: number,
): Promise<Load> {
  const headers = { cookie, 'accept-encoding': 'gzip' }
  const result = await autocannon({ url, connections, duration: seconds, headers, workers: 1 })
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `bench: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts on ${url}`,
    )
  }
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
  }
}

/**
 * Counts requests the app is still handling. autocannon drops its sockets when time is
 * up, but their handlers still run: wait for them before the next run or closing the pool.
 */
export function trackInFlight(app: FastifyInstance): () => Promise<void> {
  let inFlight = 0
  app.addHook('onRequest', async () => void inFlight++)
  // onSend runs once the handler is done, even when the client has gone (onResponse does not).
  app.addHook('onSend', async (_req, _reply, payload) => {
    inFlight--
    return payload
  })
  return async () => {
    for (let waited = 0; inFlight > 0 && waited < 10_000; waited += 20)
      await new Promise((r) => setTimeout(r, 20))
  }
}
