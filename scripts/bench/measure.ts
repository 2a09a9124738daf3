// What every driver measures: the three requests under load, with the server's CPU per
// request and its memory at the end.
import { cpuMs, rssMb, type Server, signIn } from './server'
import { BENCH_LOGIN, config, DEMO_PASSWORD, PAGE } from './config'
import { type Load, load } from './load'
import { RARE_SURNAME } from './seed'

export interface Scenario {
  key: 'list' | 'common' | 'rare'
  label: string
  path: string
  /** Bench rows it matches (name or email), when the server sends no x-total-count. */
  rows: number
}

/** The three requests; `count(term)` says how many bench rows a search matches. */
export function scenarios(
  commonSurname: string,
  count: (term: string) => number,
  total: number,
): Scenario[] {
  const search = (term: string) => `/api/patients?search=${encodeURIComponent(term)}&limit=${PAGE}`
  return [
    { key: 'list', label: 'list, first page', path: `/api/patients?limit=${PAGE}`, rows: total },
    {
      key: 'common',
      label: `search '${commonSurname}'`,
      path: search(commonSurname),
      rows: count(commonSurname),
    },
    {
      key: 'rare',
      label: `search '${RARE_SURNAME.toLowerCase()}'`,
      path: search(RARE_SURNAME.toLowerCase()),
      rows: count(RARE_SURNAME.toLowerCase()),
    },
  ]
}

export interface Measured extends Load {
  matches: number | null
  /** Server process CPU (user + system) per request, ms; all instances together. */
  serverCpuMs: number
  /** PostgreSQL backends' CPU per request, ms (PostgreSQL only). */
  dbCpuMs: number | null
}

export async function signInAll(servers: Server[]): Promise<string> {
  // One session serves every instance: they share the database and the auth secret.
  return signIn(servers[0]!.url, BENCH_LOGIN, DEMO_PASSWORD)
}

/** How many patients match (x-total-count), checking the request works first. */
export async function matches(
  server: Server,
  cookie: string,
  path: string,
): Promise<number | null> {
  const res = await fetch(server.url + path, { headers: { cookie } })
  if (!res.ok) throw new Error(`bench: GET ${path} answered ${res.status}: ${await res.text()}`)
  await res.arrayBuffer()
  const total = res.headers.get('x-total-count')
  return total === null ? null : Number(total)
}

export interface LoadOptions {
  servers: Server[]
  cookie: string
  path: string
  /** Process ids of PostgreSQL backends serving the servers, for their CPU. */
  dbPids?: () => Promise<number[]>
  encoding?: string
  seconds?: number
}

/** A warm-up (BENCH_WARMUP s), then `connections` split evenly between the servers. */
export async function measure(opts: LoadOptions): Promise<Measured> {
  const seconds = opts.seconds ?? config.seconds
  const per = Math.ceil(config.connections / opts.servers.length)
  const targets = opts.servers.map((s) => ({ url: s.url + opts.path, connections: per }))
  await load(targets, opts.cookie, config.warmup, opts.encoding)
  const server0 = opts.servers.reduce((sum, s) => sum + cpuMs(s.pid), 0)
  const pids = opts.dbPids ? await opts.dbPids() : []
  const db0 = pids.reduce((sum, p) => sum + cpuMs(p), 0)
  const result = await load(targets, opts.cookie, seconds, opts.encoding)
  const server1 = opts.servers.reduce((sum, s) => sum + cpuMs(s.pid), 0)
  const db1 = pids.reduce((sum, p) => sum + cpuMs(p), 0)
  const requests = Math.max(1, result.requests)
  return {
    ...result,
    matches: null,
    serverCpuMs: (server1 - server0) / requests,
    dbCpuMs: opts.dbPids ? (db1 - db0) / requests : null,
  }
}

/** Resident memory of the servers now (the largest), MB. */
export function serversRss(servers: Server[]): number {
  return Math.max(...servers.map((s) => rssMb(s.pid)))
}
