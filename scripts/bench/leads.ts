// The leads part (issue 8), on PostgreSQL: 100,000 leads in the benched hospital, then at one
// connection GET /api/leads with each filter and GET /api/stats beside the same SQL run
// directly; a CSV import of 100,000 rows through the API; and signed webhook deliveries from
// Meta (20 % of them repeats) against a fake Graph API, until every lead is stored once.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { type FakeGraph, startFakeGraph } from '../../tests/support/fakes/meta-graph'
import { requestSql, startTap } from './capture'
import { BENCH_HOSPITAL_EMAIL, BENCH_LOGIN, config, DEMO_PASSWORD, PAGE } from './config'
import { runDirect } from './direct'
import { benchLeads, importCsv, insertLeads } from './leads-data'
import { benchWebhook, type WebhookResult } from './leads-webhook'
import { load, type Load } from './load'
import { hospitalIdByEmail } from './seed'
import { type Server, signIn, startServer } from './server'

export interface LeadsResult {
  leads: number
  /** Per request: HTTP at 1 connection and the same SQL directly at 1 client. */
  requests: { key: string; label: string; http: Load; sql: Load; roundTrips: number }[]
  import: {
    rows: number
    ms: number
    created: number
    merged: number
    failed: number
    status: string
  } | null
  webhook: WebhookResult | null
}

/** Secrets of hospitals need a key on PostgreSQL in production (32 bytes, base64). */
const SECRETS_KEY = Buffer.alloc(32, 11).toString('base64')

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

function databaseUrl(name: string): string {
  const url = new URL(config.serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}

async function get(server: Server, cookie: string, path: string): Promise<unknown> {
  const res = await fetch(server.url + path, { headers: { cookie } })
  const text = await res.text()
  if (!res.ok) throw new Error(`bench: GET ${path} answered ${res.status}: ${text}`)
  return JSON.parse(text) as unknown
}

async function importThroughApi(
  server: Server,
  cookie: string,
  rows: number,
  stored: number,
  log: (line: string) => void,
): Promise<NonNullable<LeadsResult['import']>> {
  const { csv } = importCsv(rows, stored)
  const mapping = { name: 'Full Name', phone: 'Mobile', email: 'Email', serviceInterest: 'Service' }
  log(`  import: ${rows.toLocaleString('en-IN')} rows, ${(csv.length / 2 ** 20).toFixed(1)} MB`)
  const t0 = performance.now()
  const res = await fetch(
    `${server.url}/api/leads/import?mapping=${encodeURIComponent(JSON.stringify(mapping))}`,
    {
      method: 'POST',
      headers: { cookie, origin: server.url, 'content-type': 'text/csv' },
      body: csv,
    },
  )
  const started = await res.text()
  if (res.status !== 202) throw new Error(`bench: import answered ${res.status}: ${started}`)
  const { jobId } = JSON.parse(started) as { jobId: string }
  for (;;) {
    const p = (await get(server, cookie, `/api/leads/import/${jobId}`)) as {
      status: string
      done: number
      created: number
      merged: number
      failed: number
    }
    if (p.status === 'done' || p.status === 'failed') {
      return {
        rows,
        ms: performance.now() - t0,
        created: p.created,
        merged: p.merged,
        failed: p.failed,
        status: p.status,
      }
    }
    if (performance.now() - t0 > 600_000) throw new Error('bench: the import took over 10 min')
    await new Promise((r) => setTimeout(r, 100))
  }
}

export async function benchLeadsPart(log: (line: string) => void): Promise<LeadsResult> {
  const name = `arogya_bench_leads_${process.pid}`
  const url = databaseUrl(name)
  const dataDir = mkdtempSync(join(tmpdir(), 'arogya-bench-leads-'))
  const servers: Server[] = []
  let graph: FakeGraph | null = null
  await withClient(config.serverUrl, (c) => c.query(`create database ${name}`))
  log(`  scratch database ${name}`)
  try {
    graph = await startFakeGraph('v21.0')
    // The webhook part measures throughput, not the per-hospital quota (decision 021): one
    // hospital sends every delivery here, far beyond the default 600 changes a minute.
    const env = {
      SECRETS_KEY,
      META_GRAPH_URL: graph.url,
      META_GRAPH_VERSION: graph.version,
      META_WEBHOOK_CHANGES_PER_MINUTE: '100000',
    }
    const first = await startServer({ databaseUrl: url, dataDir, env })
    await first.stop()

    const { hospitalId, staff } = await withClient(url, async (c) => {
      const id = await hospitalIdByEmail(c, BENCH_HOSPITAL_EMAIL)
      const { rows } = await c.query<{ id: string }>(
        "select id from users where hospital_id = $1 and role in ('admin', 'receptionist', 'doctor', 'nurse')",
        [id],
      )
      return { hospitalId: id, staff: rows.map((r) => r.id) }
    })
    const rows = benchLeads(config.leads, staff)
    const t0 = performance.now()
    const total = await withClient(url, (c) => insertLeads(c, hospitalId, rows))
    log(
      `  ${rows.length.toLocaleString('en-IN')} leads inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s (hospital has ${total.toLocaleString('en-IN')})`,
    )

    const assignee = staff[0] ?? 'unassigned'
    const list = [
      { key: 'all', label: 'list, no filter', path: `/api/leads?limit=${PAGE}` },
      {
        key: 'status',
        label: 'status=follow-up',
        path: `/api/leads?status=follow-up&limit=${PAGE}`,
      },
      {
        key: 'source',
        label: 'source=meta-instagram',
        path: `/api/leads?source=meta-instagram&limit=${PAGE}`,
      },
      { key: 'name', label: "search 'priya'", path: `/api/leads?search=priya&limit=${PAGE}` },
      { key: 'phone', label: "search '98000'", path: `/api/leads?search=98000&limit=${PAGE}` },
      {
        key: 'assignee',
        label: 'assignee=<a receptionist>',
        path: `/api/leads?assignee=${assignee}&limit=${PAGE}`,
      },
      { key: 'stats', label: 'GET /api/stats', path: '/api/stats' },
    ]

    // The SQL of each request through the tap (the 3rd of 3 requests: caches warm).
    const tap = await startTap(url)
    const tapped = await startServer({ databaseUrl: tap.url, dataDir, env })
    const captured: Record<string, ReturnType<typeof requestSql>> = {}
    try {
      const cookie = await signIn(tapped.url, BENCH_LOGIN, DEMO_PASSWORD)
      for (const s of list) {
        for (let i = 0; i < 3; i++) {
          const from = tap.events.length
          await get(tapped, cookie, s.path)
          await new Promise((r) => setTimeout(r, 50))
          if (i === 2) captured[s.key] = requestSql(tap.events.slice(from), 'leads')
        }
        if (process.env.BENCH_SHOW_SQL) {
          log(`  SQL of ${s.label}:`)
          for (const q of captured[s.key]!.transaction)
            log(`    ${q.text.replace(/\s+/g, ' ')}  ${JSON.stringify(q.params)}`)
        }
      }
    } finally {
      await tapped.stop()
      await tap.close()
    }

    const server = await startServer({ databaseUrl: url, dataDir, env })
    servers.push(server)
    const cookie = await signIn(server.url, BENCH_LOGIN, DEMO_PASSWORD)
    const requests: LeadsResult['requests'] = []
    for (const s of list) {
      const target = [{ url: server.url + s.path, connections: 1 }]
      await load(target, cookie, 1)
      const http = await load(target, cookie, config.seconds)
      const sql = await runDirect(url, captured[s.key]!.transaction, 1, config.seconds)
      requests.push({ ...s, http, sql, roundTrips: captured[s.key]!.roundTrips })
      log(
        `  ${s.label}: HTTP p50 ${http.p50.toFixed(1)} p99 ${http.p99.toFixed(1)} ms (${http.rps.toFixed(0)} req/s); SQL p50 ${sql.p50.toFixed(1)} p99 ${sql.p99.toFixed(1)} ms`,
      )
    }

    let imported: LeadsResult['import'] = null
    if (config.importRows > 0) {
      imported = await importThroughApi(server, cookie, config.importRows, total, log)
      log(
        `  import ${imported.status} in ${(imported.ms / 1000).toFixed(1)} s: ${imported.created} new, ${imported.merged} merged, ${imported.failed} refused`,
      )
    }
    const webhook =
      config.webhooks > 0
        ? await benchWebhook({ server, cookie, graph, databaseUrl: url, hospitalId, log })
        : null
    return { leads: total, requests, import: imported, webhook }
  } finally {
    for (const s of servers) await s.stop()
    await graph?.close()
    await withClient(config.serverUrl, (c) =>
      c.query(`drop database if exists ${name} with (force)`),
    )
    rmSync(dataDir, { recursive: true, force: true })
    log(`  dropped ${name}`)
  }
}
