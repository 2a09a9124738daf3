// Signed webhook ingestion: the hospital connects a (fake) Meta page and tests it, then 10
// senders post Meta's leadgen deliveries, one change each as Meta sends them, 20 % of them a
// lead already delivered. Measured: deliveries acknowledged per second, and the time until
// the background jobs have fetched every lead from the fake Graph API and stored it once.
import pg from 'pg'
import { type FakeGraph, fakeLead } from '../../tests/support/fakes/meta-graph'
import { signMetaBody } from '../../src/server/integrations/meta/signature'
import { config } from './config'
import { seriesPhone } from './leads-data'
import { percentile } from './load'
import type { Server } from './server'

export interface WebhookResult {
  deliveries: number
  unique: number
  ackMs: number
  ackPerSecond: number
  ackP50: number
  ackP99: number
  /** From the first delivery until every lead is stored. */
  storedMs: number
  stored: number
  storedOnce: boolean
  jobs: number
}

const PAGE_ID = '104857600999001'
const FORM_ID = '4440009001'
const TOKEN = 'EAAGbenchPageAccessToken000000000000Bx01'
const APP_SECRET = 'bench0app0secret0000000000000001'
const SENDERS = 10

export async function benchWebhook(opts: {
  server: Server
  cookie: string
  graph: FakeGraph
  databaseUrl: string
  hospitalId: string
  log: (line: string) => void
}): Promise<WebhookResult> {
  const { server, cookie, graph, log } = opts
  const total = config.webhooks
  const unique = Math.ceil(total * 0.8)
  const leads = Array.from({ length: unique }, (_, i) =>
    fakeLead({
      full_name: `Webhook Lead ${i}`,
      phone_number: seriesPhone('99', i),
      email: `webhook.lead.${i}@example.in`,
      service_interest: 'IVF consultation',
    }),
  )
  graph.pages.set(PAGE_ID, {
    id: PAGE_ID,
    name: 'Sanjeevani Hospital',
    token: TOKEN,
    appSecret: APP_SECRET,
    forms: [{ id: FORM_ID, name: 'IVF enquiry', leads }],
  })
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { cookie, origin: server.url, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`bench: ${method} ${path} answered ${res.status}`)
  }
  await call('PUT', '/api/integrations/meta', {
    pageId: PAGE_ID,
    pageAccessToken: TOKEN,
    appSecret: APP_SECRET,
    verifyToken: 'bench-verify-token-0000000001',
  })
  await call('POST', '/api/integrations/meta/test', {})

  // Deliveries: every lead once, and 20 % repeats of one already sent, shuffled in.
  const order: string[] = leads.map((l) => l.id)
  for (let i = unique; i < total; i++) {
    const at = Math.floor(Math.random() * order.length)
    order.splice(at + 1, 0, order[Math.floor(Math.random() * (at + 1))]!)
  }
  const bodies = order.map((id) =>
    JSON.stringify({
      object: 'page',
      entry: [
        {
          id: PAGE_ID,
          time: Math.floor(Date.now() / 1000),
          changes: [
            {
              field: 'leadgen',
              value: {
                leadgen_id: id,
                page_id: PAGE_ID,
                form_id: FORM_ID,
                created_time: Math.floor(Date.now() / 1000),
              },
            },
          ],
        },
      ],
    }),
  )
  const latencies: number[] = []
  let next = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      while (next < bodies.length) {
        const raw = bodies[next++]!
        const s = performance.now()
        const res = await fetch(`${server.url}/api/webhooks/meta`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-hub-signature-256': signMetaBody(raw, APP_SECRET),
          },
          body: raw,
        })
        await res.arrayBuffer()
        if (res.status !== 200) throw new Error(`bench: a delivery answered ${res.status}`)
        latencies.push(performance.now() - s)
      }
    }),
  )
  const ackMs = performance.now() - t0
  log(
    `  webhook: ${total} deliveries (${unique} leads) acknowledged in ${(ackMs / 1000).toFixed(1)} s: ${((total / ackMs) * 1000).toFixed(0)}/s, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
  )

  const ids = leads.map((l) => l.id)
  const db = new pg.Client({ connectionString: opts.databaseUrl })
  await db.connect()
  try {
    const counts = async () => {
      const { rows } = await db.query<{ stored: number; distinct: number; jobs: number }>(
        `select (select count(*)::int from leads where hospital_id = $1 and meta_lead_id = any($2)) as stored,
                (select count(distinct meta_lead_id)::int from leads where hospital_id = $1 and meta_lead_id = any($2)) as distinct,
                (select count(*)::int from jobs where name = 'meta.fetch-lead' and hospital_id = $1) as jobs`,
        [opts.hospitalId, ids],
      )
      return rows[0]!
    }
    let seen = await counts()
    while (seen.stored < unique) {
      if (performance.now() - t0 > 600_000)
        throw new Error('bench: webhook leads not stored in 10 min')
      await new Promise((r) => setTimeout(r, 100))
      seen = await counts()
    }
    const storedMs = performance.now() - t0
    await new Promise((r) => setTimeout(r, 500)) // nothing more arrives late
    seen = await counts()
    const result = {
      deliveries: total,
      unique,
      ackMs,
      ackPerSecond: (total / ackMs) * 1000,
      ackP50: percentile(latencies, 50),
      ackP99: percentile(latencies, 99),
      storedMs,
      stored: seen.stored,
      storedOnce: seen.stored === unique && seen.distinct === unique && seen.jobs === unique,
      jobs: seen.jobs,
    }
    log(
      `  webhook: all ${unique} leads fetched and stored ${(storedMs / 1000).toFixed(1)} s after the first delivery (${((unique / storedMs) * 1000).toFixed(0)}/s); stored once: ${result.storedOnce} (${seen.stored} leads, ${seen.jobs} jobs)`,
    )
    return result
  } finally {
    await db.end()
  }
}
