// Messaging status-callback ingestion (issue 25, goal ≥ 1,000 callbacks/s on PostgreSQL): the
// real app (buildApp) listening on HTTP, Twilio configured for one hospital, N outbound
// messages, then SENDERS concurrent senders post Twilio's signed status callbacks over HTTP
// (sent, then delivered, per message: 2N callbacks, 10 % of them replayed). Measured:
// callbacks answered per second, p50/p99, and that every message ended 'delivered'.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx scripts/bench/messaging-webhooks.ts
//   BENCH_MESSAGES=5000 BENCH_SENDERS=20 ...
// Without TEST_DATABASE_URL it runs on embedded PGlite (one transaction at a time).
import { cpus, loadavg, totalmem } from 'node:os'
import type { AddressInfo } from 'node:net'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { sql } from 'drizzle-orm'
import { configureMessaging } from '../../tests/support/messaging-webhooks'
import { createTestApp, hospitalIdOf, queryRows } from '../../tests/support/test-app'
import { percentile } from './load'

export interface MessagingWebhookResult {
  driver: string
  callbacks: number
  seconds: number
  perSecond: number
  p50: number
  p99: number
  allDelivered: boolean
  /** The server's CPU (the app and its pg client; not PostgreSQL, not the senders) per callback, in ms. */
  cpuMsPerCallback: number
}

const TOKEN = 'bench-twilio-auth-token-0000000001'

/** The senders: node senders.mjs <url> <token> <senders> <callbacks.json>; prints latencies. */
const SENDERS_SCRIPT = `
import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
const [url, token, senders, file] = process.argv.slice(2)
const callbacks = JSON.parse(readFileSync(file, 'utf8'))
const sign = (params) => {
  let data = url
  for (const name of Object.keys(params).sort()) data += name + params[name]
  return createHmac('sha1', token).update(data, 'utf8').digest('base64')
}
const latencies = []
let next = 0
await Promise.all(Array.from({ length: Number(senders) }, async () => {
  while (next < callbacks.length) {
    const params = callbacks[next++]
    const s = performance.now()
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': sign(params) },
      body: new URLSearchParams(params).toString(),
    })
    await res.arrayBuffer()
    if (res.status !== 200) { console.error('callback answered ' + res.status); process.exit(1) }
    latencies.push(performance.now() - s)
  }
}))
process.stdout.write(JSON.stringify(latencies))
`

export async function benchMessagingWebhooks(
  log: (line: string) => void,
  opts: { messages?: number; senders?: number } = {},
): Promise<MessagingWebhookResult> {
  const messages = opts.messages ?? Number(process.env.BENCH_MESSAGES ?? 5_000)
  const senders = opts.senders ?? Number(process.env.BENCH_SENDERS ?? 20)
  const t = await createTestApp({ logLevel: 'warn' })
  try {
    const hospitalId = await hospitalIdOf(t.db, 'sanjeevani')
    await configureMessaging(t.db, hospitalId, {
      sms: {
        provider: 'twilio',
        settings: { accountSid: `AC${'3'.repeat(32)}`, from: '+14155550100' },
        secrets: { authToken: TOKEN },
      },
    })
    const [lead] = await queryRows<{ id: string; phone: string }>(
      t.db,
      sql`select id, phone from leads where hospital_id = ${hospitalId} limit 1`,
    )
    if (!lead) throw new Error('bench: no lead')
    const sids = Array.from({ length: messages }, (_, i) => `SM${i.toString(16).padStart(32, '0')}`)
    await queryRows(
      t.db,
      sql`insert into communications (hospital_id, lead_id, type, direction, content, status, contact_address, provider, provider_message_id)
          select ${hospitalId}, ${lead.id}, 'sms', 'outbound', 'Bench message', 'sending', ${lead.phone}, 'twilio', sid
          from jsonb_array_elements_text(${JSON.stringify(sids)}::jsonb) as sid`,
    )
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    const port = (t.app.server.address() as AddressInfo).port
    const path = `/api/webhooks/twilio/${hospitalId}/status`
    const url = `http://127.0.0.1:${port}${path}`
    const callbacks: Record<string, string>[] = []
    for (const sid of sids) callbacks.push({ MessageSid: sid, MessageStatus: 'sent' })
    for (const sid of sids) callbacks.push({ MessageSid: sid, MessageStatus: 'delivered' })
    for (let i = 0; i < messages / 10; i++) callbacks.push(callbacks[(i * 7) % callbacks.length]!)
    // The senders run in a child process, so that this process's CPU is the server's alone.
    const dir = mkdtempSync(join(tmpdir(), 'bench-twilio-'))
    writeFileSync(join(dir, 'callbacks.json'), JSON.stringify(callbacks))
    writeFileSync(join(dir, 'senders.mjs'), SENDERS_SCRIPT)
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    const child = spawn(
      process.execPath,
      [join(dir, 'senders.mjs'), url, TOKEN, String(senders), join(dir, 'callbacks.json')],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    if (code !== 0) throw new Error(`bench: senders exited with ${code}`)
    const ms = performance.now() - t0
    const cpu = process.cpuUsage(cpu0)
    rmSync(dir, { recursive: true, force: true })
    const latencies = JSON.parse(out) as number[]
    const [counts] = await queryRows<{ delivered: number }>(
      t.db,
      sql`select count(*)::int as delivered from communications where hospital_id = ${hospitalId}
          and provider = 'twilio' and provider_message_id in (select jsonb_array_elements_text(${JSON.stringify(sids)}::jsonb)) and status = 'delivered'`,
    )
    const result: MessagingWebhookResult = {
      driver: t.driver,
      callbacks: callbacks.length,
      seconds: ms / 1000,
      perSecond: (callbacks.length / ms) * 1000,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      allDelivered: counts?.delivered === messages,
      cpuMsPerCallback: (cpu.user + cpu.system) / 1000 / callbacks.length,
    }
    log(
      `  messaging webhooks (${result.driver}): ${result.callbacks} signed Twilio status callbacks from ${senders} senders in ${result.seconds.toFixed(1)} s: ${result.perSecond.toFixed(0)}/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms; all ${messages} delivered: ${result.allDelivered}; ${result.cpuMsPerCallback.toFixed(2)} ms of the server's CPU per callback (≈ ${(1000 / result.cpuMsPerCallback).toFixed(0)}/s per core-saturated instance)`,
    )
    return result
  } finally {
    await t.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cpu = cpus()
  console.log(
    `Machine: ${cpu[0]?.model ?? 'unknown'} x ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
  benchMessagingWebhooks(console.log).then(
    (r) => console.log(`BENCH-SUMMARY ${JSON.stringify({ messagingWebhooks: r })}`),
    (error: unknown) => {
      console.error(error)
      process.exitCode = 1
    },
  )
}
