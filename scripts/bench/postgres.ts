// The PostgreSQL half: a scratch database, the demo seed by the server's own first start,
// bench patients in bulk, the SQL each request runs (through the wire tap), then load on one
// instance and on two, and the same SQL run directly.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { type RequestSql, requestSql, startTap } from './capture'
import { BENCH_HOSPITAL_EMAIL, config } from './config'
import { explain, runDirect } from './direct'
import type { Load } from './load'
import { matches, type Measured, measure, type Scenario, serversRss, signInAll } from './measure'
import type { benchPatients } from './seed'
import { hospitalIdByEmail, insertPatients } from './seed'
import { restarted, type Server, startServer } from './server'

export interface PostgresResult {
  version: string
  seedMs: number
  firstStartMs: number
  restartMs: number
  rssMb: number
  sql: Record<string, RequestSql>
  plans: Record<string, string[]>
  http: Record<string, Measured>
  direct: Record<string, Load>
  instances: { key: string; one: Measured; two: Measured }[]
  /** A page of 30 as JSON, for the compression figures. */
  page: string
  /** Server CPU per list request by Accept-Encoding. */
  encodings: { encoding: string; result: Measured }[]
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/** Whether the PostgreSQL server answers; the bench skips its PostgreSQL part otherwise. */
export async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({
    connectionString: config.serverUrl,
    connectionTimeoutMillis: 3000,
  })
  try {
    await client.connect()
    await client.end()
    return true
  } catch (error) {
    console.log(
      `  PostgreSQL at ${config.serverUrl.replace(/\/\/[^@]*@/, '//')} did not answer: ${(error as Error).message}`,
    )
    return false
  }
}

function databaseUrl(name: string): string {
  const url = new URL(config.serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}

export async function benchPostgres(
  list: Scenario[],
  rows: ReturnType<typeof benchPatients>,
  log: (line: string) => void,
): Promise<PostgresResult> {
  const name = `arogya_bench_${process.pid}`
  const url = databaseUrl(name)
  const dataDir = mkdtempSync(join(tmpdir(), 'arogya-bench-pg-'))
  const servers: Server[] = []
  await withClient(config.serverUrl, (c) => c.query(`create database ${name}`))
  log(`  scratch database ${name} on ${url.replace(/\/\/[^@]*@/, '//')}`)
  try {
    const version = await withClient(url, async (c) => {
      const { rows: v } = await c.query<{ v: string }>(
        "select current_setting('server_version') as v",
      )
      return `PostgreSQL ${v[0]?.v ?? '?'}`
    })
    // First start: migrations and the demo seed, as any new install.
    const first = await startServer({ databaseUrl: url, dataDir })
    await first.stop()
    log(`  first start (migrations, demo seed): ${(first.readyMs / 1000).toFixed(1)} s`)

    const t0 = performance.now()
    const total = await withClient(url, async (c) =>
      insertPatients(c, await hospitalIdByEmail(c, BENCH_HOSPITAL_EMAIL), rows),
    )
    const seedMs = performance.now() - t0
    log(
      `  ${rows.length.toLocaleString('en-IN')} patients inserted in ${(seedMs / 1000).toFixed(1)} s (hospital has ${total.toLocaleString('en-IN')})`,
    )

    // The SQL of each request, through the tap; the 3rd of 3 requests (caches warm).
    const tap = await startTap(url)
    const tapped = await startServer({ databaseUrl: tap.url, dataDir })
    const sql: Record<string, RequestSql> = {}
    const plans: Record<string, string[]> = {}
    let page = ''
    try {
      const cookie = await signInAll([tapped])
      for (const s of list) {
        for (let i = 0; i < 3; i++) {
          const from = tap.events.length
          await matches(tapped, cookie, s.path)
          await new Promise((r) => setTimeout(r, 50)) // let the tap see the last bytes
          if (i === 2) sql[s.key] = requestSql(tap.events.slice(from))
        }
        plans[s.key] = await explain(url, sql[s.key]!.transaction)
      }
      const res = await fetch(tapped.url + list[0]!.path, {
        headers: { cookie, 'accept-encoding': 'identity' },
      })
      page = await res.text()
    } finally {
      await tapped.stop()
      await tap.close()
    }

    // Restart on the existing database, then load.
    const restart = await restarted({ databaseUrl: url, dataDir })
    const one = restart.server
    servers.push(one)
    log(`  restart: /readyz 200 after ${restart.all.map((ms) => ms.toFixed(0)).join(', ')} ms`)
    const cookie = await signInAll([one])
    const dbPids = () =>
      withClient(config.serverUrl, async (c) => {
        const { rows: r } = await c.query<{ pid: number }>(
          'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [name],
        )
        return r.map((x) => x.pid)
      })
    const http: Record<string, Measured> = {}
    const direct: Record<string, Load> = {}
    let rss = 0
    for (const s of list) {
      const m = await measure({ servers: [one], cookie, path: s.path, dbPids })
      m.matches = await matches(one, cookie, s.path)
      http[s.key] = m
      rss = Math.max(rss, serversRss([one]))
      log(
        `  HTTP ${s.label}: ${m.rps.toFixed(0)} req/s, p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms`,
      )
      direct[s.key] = await runDirect(
        url,
        sql[s.key]!.transaction,
        config.connections,
        config.seconds,
      )
      log(
        `  SQL  ${s.label}: ${direct[s.key]!.rps.toFixed(0)} tx/s, p50 ${direct[s.key]!.p50.toFixed(1)} ms, p99 ${direct[s.key]!.p99.toFixed(1)} ms`,
      )
    }

    const encodings: PostgresResult['encodings'] = []
    if (config.parts('compression')) {
      for (const encoding of ['identity', 'gzip', 'br']) {
        const result = await measure({
          servers: [one],
          cookie,
          path: list[0]!.path,
          dbPids,
          encoding,
        })
        encodings.push({ encoding, result })
        log(
          `  list with Accept-Encoding ${encoding}: server CPU ${result.serverCpuMs.toFixed(2)} ms/request, ${result.bytes.toFixed(0)} B`,
        )
      }
    }

    const instances: PostgresResult['instances'] = []
    if (config.parts('instances')) {
      const two = await startServer({ databaseUrl: url, dataDir })
      servers.push(two)
      for (const s of list.slice(0, 2)) {
        const single = await measure({ servers: [one], cookie, path: s.path, dbPids })
        const both = await measure({ servers: [one, two], cookie, path: s.path, dbPids })
        instances.push({ key: s.key, one: single, two: both })
        rss = Math.max(rss, serversRss([one, two]))
        log(
          `  ${s.label}: 1 instance ${single.rps.toFixed(0)} req/s p99 ${single.p99.toFixed(1)} ms; 2 instances ${both.rps.toFixed(0)} req/s p99 ${both.p99.toFixed(1)} ms`,
        )
      }
    }
    return {
      version,
      seedMs,
      firstStartMs: first.readyMs,
      restartMs: restart.restartMs,
      rssMb: rss,
      sql,
      plans,
      http,
      direct,
      instances,
      page,
      encodings,
    }
  } finally {
    for (const s of servers) await s.stop()
    await withClient(config.serverUrl, (c) =>
      c.query(`drop database if exists ${name} with (force)`),
    )
    rmSync(dataDir, { recursive: true, force: true })
    log(`  dropped ${name}`)
  }
}
