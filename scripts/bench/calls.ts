// Voice (issue 41): (1) Twilio voice status callbacks through the real app: N outbound calls
// ringing (one lead and one staff member each, inserted directly), their completed details at
// the fake Twilio (parent and customer leg), then SENDERS concurrent senders post the signed
// callbacks over HTTP (the customer leg's in-progress and completed, the staff leg's
// completed; 10 % replayed) while a worker runs the voice.callback jobs, each asking the fake
// for the call's details and moving the call on. Measured: callbacks answered per second with
// p50/p99, callbacks processed per second (until every job is done and every call has ended
// with its one Communication; goal >= 1,000/s) and the process's CPU per callback (the app,
// the worker and the in-process fake Twilio; not PostgreSQL, not the senders). (2) The call
// history of a lead with 1,000 calls, GET /api/calls?leadId= (the newest 200): p50/p99 of 200
// sequential requests after a warm-up (goal p99 <= 20 ms), and its plan's first line.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx scripts/bench/calls.ts
//   BENCH_CALLS=2000 BENCH_SENDERS=20 BENCH_CALLS_WORKERS=4 BENCH_CALLS_PER_HOSPITAL=2 ...
// Without TEST_DATABASE_URL it runs on embedded PGlite (one transaction at a time).
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { withTenant } from '../../src/server/db/tenant'
import { Worker } from '../../src/server/jobs/worker'
import { VOICE_CALLBACK_JOB } from '../../src/server/modules/voice-webhooks/callback-job'
import { FAST_VOICE } from '../../tests/support/calls'
import { type FakeTwilioCall, startFakeTwilioVoice } from '../../tests/support/fakes/twilio-voice'
import { call } from '../../tests/support/leads'
import { login } from '../../tests/support/login'
import { createTestApp, demoEmail, hospitalIdOf, queryRows } from '../../tests/support/test-app'
import {
  listenLocally,
  statusCallbackUrl,
  useTwilio as configureTwilioVoice,
} from '../../tests/support/voice-webhooks'
import { percentile } from './load'
import { callsSummary } from './report'

export interface CallsResult {
  driver: 'postgres' | 'pglite'
  callbacks: {
    calls: number
    callbacks: number
    senders: number
    workers: number
    perHospitalRunning: number
    answeredPerSecond: number
    p50: number
    p99: number
    processedSeconds: number
    processedPerSecond: number
    allEnded: boolean
    communications: number
    deadJobs: number
    /** The process's CPU (app, worker, fake Twilio) per callback, in ms. */
    cpuMsPerCallback: number
  }
  history: { calls: number; listed: number; p50: number; p99: number; plan: string }
}

const ACCOUNT = { accountSid: `AC${'4'.repeat(32)}`, authToken: 'bench-voice-token-0000000001' }
const NUMBER = '+14155550199'

/** The senders: node senders.mjs <token> <senders> <callbacks.json>; prints latencies. */
const SENDERS_SCRIPT = `
import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
const [token, senders, file] = process.argv.slice(2)
const callbacks = JSON.parse(readFileSync(file, 'utf8'))
const sign = (url, params) => {
  let data = url
  for (const name of Object.keys(params).sort()) data += name + params[name]
  return createHmac('sha1', token).update(data, 'utf8').digest('base64')
}
const latencies = []
let next = 0
await Promise.all(Array.from({ length: Number(senders) }, async () => {
  while (next < callbacks.length) {
    const { url, params } = callbacks[next++]
    const s = performance.now()
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': sign(url, params) },
      body: new URLSearchParams(params).toString(),
    })
    await res.arrayBuffer()
    if (res.status !== 200) { console.error('callback answered ' + res.status); process.exit(1) }
    latencies.push(performance.now() - s)
  }
}))
process.stdout.write(JSON.stringify(latencies))
`

const sid = (prefix: number, i: number) =>
  `CA${prefix.toString(16)}${i.toString(16).padStart(31, '0')}`

/** Twilio's callback form for one leg's status (as the fake and Twilio send it). */
function form(leg: FakeTwilioCall, status: string): Record<string, string> {
  const params: Record<string, string> = {
    AccountSid: leg.accountSid,
    ApiVersion: '2010-04-01',
    CallSid: leg.sid,
    CallStatus: status,
    Direction: leg.direction,
    From: leg.from,
    To: leg.to,
    CallbackSource: 'call-progress-events',
    Timestamp: new Date().toUTCString(),
  }
  if (leg.parentSid) params.ParentCallSid = leg.parentSid
  if (status === 'completed') params.CallDuration = String(leg.duration)
  return params
}

async function timed(runs: number, fn: () => Promise<unknown>) {
  for (let i = 0; i < 20; i++) await fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    await fn()
    times.push(performance.now() - t0)
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) }
}

export async function benchCalls(
  log: (line: string) => void,
  opts: { calls?: number; senders?: number } = {},
): Promise<CallsResult> {
  const n = opts.calls ?? Number(process.env.BENCH_CALLS ?? 2_000)
  const senders = opts.senders ?? Number(process.env.BENCH_SENDERS ?? 20)
  const workers = Number(process.env.BENCH_CALLS_WORKERS ?? 4)
  const perHospitalRunning = Number(process.env.BENCH_CALLS_PER_HOSPITAL ?? 2)
  const fake = await startFakeTwilioVoice({
    [ACCOUNT.accountSid]: { authToken: ACCOUNT.authToken, numbers: [NUMBER] },
  })
  const t = await createTestApp({ logLevel: 'warn', voice: { ...FAST_VOICE, twilioUrl: fake.url } })
  const driver = t.driver === 'postgres' ? 'postgres' : 'pglite'
  let worker: Worker | undefined
  try {
    const h = await hospitalIdOf(t.db, 'sanjeevani')
    await configureTwilioVoice(t, h, { ...ACCOUNT, number: NUMBER })
    const base = await listenLocally(t)
    const url = statusCallbackUrl({
      kind: 'twilio',
      hospitalId: h,
      callbackToken: null,
      publicBase: base,
    })
    if (!url) throw new Error('bench: no callback URL')
    const customerUrl = `${url}?leg=customer`

    // N leads, one ringing call each (a staff member each: one live outbound call per staff).
    const phones = Array.from({ length: n }, (_, i) => `+9195${String(i).padStart(8, '0')}`)
    const rows = await queryRows<{ id: string; phone: string; sid: string }>(
      t.db,
      sql`with l as (
            insert into leads (hospital_id, name, phone, source)
            select ${h}, 'Bench caller ' || x.n, x.p, 'manual'
            from unnest(${`{${phones.join(',')}}`}::text[]) with ordinality as x(p, n)
            returning id, phone)
          insert into calls (hospital_id, lead_id, user_id, provider, provider_call_id,
            customer_phone, status, started_at, created_at)
          select ${h}, l.id, 'bench-staff-' || l.phone, 'twilio',
            'CA1' || lpad(to_hex((substr(l.phone, 6))::int), 31, '0'), l.phone, 'ringing',
            now() - interval '5 minutes', now() - interval '5 minutes'
          from l returning id, customer_phone as phone, provider_call_id as sid`,
    )
    if (rows.length !== n) throw new Error(`bench: ${rows.length} calls inserted, not ${n}`)
    const started = new Date(Date.now() - 300_000)
    const callbacks: { url: string; params: Record<string, string> }[] = []
    rows.sort((a, b) => a.phone.localeCompare(b.phone))
    for (const [i, r] of rows.entries()) {
      if (r.sid !== sid(1, i)) throw new Error(`bench: unexpected sid ${r.sid}`)
      const seconds = 30 + (i % 90)
      const parent: FakeTwilioCall = {
        sid: r.sid,
        accountSid: ACCOUNT.accountSid,
        parentSid: null,
        to: `+9198${String(i).padStart(8, '0')}`,
        from: NUMBER,
        status: 'completed',
        direction: 'outbound-api',
        duration: seconds + 25,
        createdAt: started,
        endedAt: new Date(started.getTime() + (25 + seconds) * 1000),
        params: {},
        statusCallback: url,
        events: ['initiated', 'ringing', 'answered', 'completed'],
        dial: { number: r.phone, callerId: NUMBER, statusCallback: customerUrl },
      }
      const child: FakeTwilioCall = {
        ...parent,
        sid: sid(2, i),
        parentSid: r.sid,
        to: r.phone,
        direction: 'outbound-dial',
        duration: seconds,
        createdAt: new Date(started.getTime() + 5_000),
        statusCallback: customerUrl,
        dial: null,
      }
      fake.calls.push(parent, child)
      callbacks.push({ url: customerUrl, params: form(child, 'in-progress') })
      callbacks.push({ url: customerUrl, params: form(child, 'completed') })
      callbacks.push({ url, params: form(parent, 'completed') })
    }
    // Per call in order, calls interleaved; 10 % replayed (Twilio retries).
    const unique = callbacks.length
    for (let i = 0; i < unique / 10; i++) callbacks.push(callbacks[(i * 7) % unique]!)

    worker = new Worker({
      database: t.database,
      names: [VOICE_CALLBACK_JOB],
      concurrency: workers,
      perHospitalRunning,
      directUrl: t.directUrl,
      pollMs: 20,
      leaseMs: 30_000,
      backoff: () => 200,
    })
    await worker.start()
    const dir = mkdtempSync(join(tmpdir(), 'bench-calls-'))
    writeFileSync(join(dir, 'callbacks.json'), JSON.stringify(callbacks))
    writeFileSync(join(dir, 'senders.mjs'), SENDERS_SCRIPT)
    // The senders run in a child process, so that this process's CPU is the server's alone.
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    const child = spawn(
      process.execPath,
      [join(dir, 'senders.mjs'), ACCOUNT.authToken, String(senders), join(dir, 'callbacks.json')],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    if (code !== 0) throw new Error(`bench: senders exited with ${code}`)
    const answeredMs = performance.now() - t0
    rmSync(dir, { recursive: true, force: true })
    const latencies = JSON.parse(out) as number[]
    const deadline = Date.now() + 10 * 60_000
    for (;;) {
      const [left] = await queryRows<{ jobs: number; live: number }>(
        t.db,
        sql`select (select count(*)::int from jobs where name = ${VOICE_CALLBACK_JOB}
                      and status in ('queued', 'running', 'failed')) as jobs,
                   (select count(*)::int from calls where hospital_id = ${h}
                      and user_id like 'bench-staff-+%' and ended_at is null) as live`,
      )
      if (left?.jobs === 0 && left.live === 0) break
      if (Date.now() > deadline) throw new Error(`bench: not settled: ${JSON.stringify(left)}`)
      await new Promise((r) => setTimeout(r, 25))
    }
    const processedMs = performance.now() - t0
    const cpu = process.cpuUsage(cpu0)
    await worker.stop()
    worker = undefined
    // Checked: every call completed with its one Communication. And where the time goes: the
    // jobs made (one per call, leg and state; replays add none), how long each ran.
    type Check = {
      ended: number
      comms: number
      dead: number
      jobs: number
      p50: number
      p99: number
    }
    const [check] = await queryRows<Check>(
      t.db,
      sql`select (select count(*)::int from calls where hospital_id = ${h}
                    and user_id like 'bench-staff-+%' and status = 'completed'
                    and duration_seconds >= 30) as ended,
                 (select count(*)::int from communications c join calls k
                    on k.hospital_id = c.hospital_id and c.metadata->>'callId' = k.id::text
                    where c.hospital_id = ${h} and c.type = 'call'
                    and k.user_id like 'bench-staff-+%') as comms,
                 count(*) filter (where status = 'dead')::int as dead, count(*)::int as jobs,
                 percentile_cont(0.5) within group (order by ms) as p50,
                 percentile_cont(0.99) within group (order by ms) as p99
          from (select status, extract(epoch from finished_at - started_at) * 1000 as ms
                from jobs where name = ${VOICE_CALLBACK_JOB}) j`,
    )
    log(
      `  ${check?.jobs ?? 0} voice.callback jobs, each ran (claimed to done) p50 ${Number(check?.p50 ?? 0).toFixed(1)} ms, p99 ${Number(check?.p99 ?? 0).toFixed(1)} ms`,
    )
    const cb: CallsResult['callbacks'] = {
      calls: n,
      callbacks: callbacks.length,
      senders,
      workers: driver === 'pglite' ? 1 : workers,
      perHospitalRunning,
      answeredPerSecond: (callbacks.length / answeredMs) * 1000,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      processedSeconds: processedMs / 1000,
      processedPerSecond: (callbacks.length / processedMs) * 1000,
      allEnded: check?.ended === n,
      communications: check?.comms ?? 0,
      deadJobs: check?.dead ?? 0,
      cpuMsPerCallback: (cpu.user + cpu.system) / 1000 / callbacks.length,
    }
    log(
      `  voice callbacks (${driver}): ${cb.callbacks} signed Twilio callbacks for ${n} calls from ${senders} senders: answered ${cb.answeredPerSecond.toFixed(0)}/s (p50 ${cb.p50.toFixed(1)} ms, p99 ${cb.p99.toFixed(1)} ms); all processed in ${cb.processedSeconds.toFixed(1)} s: ${cb.processedPerSecond.toFixed(0)}/s (goal >= 1,000/s; worker ${cb.workers} at once, ${perHospitalRunning} per hospital); ${check?.ended ?? 0}/${n} calls completed, ${cb.communications} call Communications, ${cb.deadJobs} dead jobs; ${cb.cpuMsPerCallback.toFixed(2)} ms of this process's CPU per callback (app + worker + fake Twilio)`,
    )
    if (!cb.allEnded || cb.communications !== n || cb.deadJobs !== 0)
      log('  FAILED: the calls did not all end completed with exactly one Communication each')

    // The call history of one lead with 1,000 calls.
    const historyCalls = 1_000
    const [lead] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into leads (hospital_id, name, phone, source)
          values (${h}, 'Bench regular caller', '+919999000001', 'manual') returning id`,
    )
    if (!lead) throw new Error('bench: no lead')
    await queryRows(
      t.db,
      sql`insert into calls (hospital_id, lead_id, user_id, provider, provider_call_id,
            customer_phone, status, outcome, duration_seconds, started_at, answered_at, ended_at,
            created_at)
          select ${h}, ${lead.id}, 'bench-staff-history', 'twilio',
            'CA3' || lpad(to_hex(g), 31, '0'), '+919999000001', 'completed', 'answered', 60,
            now() - (g || ' hours')::interval, now() - (g || ' hours')::interval,
            now() - (g || ' hours')::interval + interval '1 minute', now() - (g || ' hours')::interval
          from generate_series(1, ${historyCalls}) g`,
    )
    // The hospital's other calls: BENCH_CALLS_OTHERS (default 20,000) over the same weeks,
    // spread over the callback part's leads, so the history is one lead's among many.
    const others = Number(process.env.BENCH_CALLS_OTHERS ?? 20_000)
    await queryRows(
      t.db,
      sql`insert into calls (hospital_id, lead_id, user_id, provider, provider_call_id,
            customer_phone, status, outcome, duration_seconds, started_at, answered_at, ended_at,
            created_at)
          select ${h}, l.id, 'bench-staff-others', 'twilio', 'CA4' || lpad(to_hex(g), 31, '0'),
            l.phone, 'no-answer', 'no-answer', 0, now() - (g * 3 || ' minutes')::interval, null,
            now() - (g * 3 || ' minutes')::interval, now() - (g * 3 || ' minutes')::interval
          from generate_series(1, ${others}) g
          join (select id, phone, row_number() over (order by phone) - 1 as i from leads
                where hospital_id = ${h} and name like 'Bench caller %') l on l.i = g % ${n}`,
    )
    await queryRows(t.db, sql`analyze calls`)
    const cookie = await login(t.app, demoEmail('admin'))
    const path = `/api/calls?leadId=${lead.id}`
    let listed = 0
    const history = await timed(200, async () => {
      const res = await call(t.app, cookie, 'GET', path)
      if (res.statusCode !== 200) throw new Error(`calls: ${res.statusCode} ${res.body}`)
      listed = res.json<{ calls: unknown[] }>().calls.length
    })
    const plan = await withTenant(t.db, { hospitalId: h, userId: null }, async (tx) => {
      const result = (await tx.execute(
        sql`explain select * from calls where lead_id = ${lead.id}
            order by created_at desc, id desc limit 200`,
      )) as unknown as { rows: Record<string, string>[] }
      return result.rows.map((r) => String(Object.values(r)[0]))
    })
    const first = plan.find((l) => /calls_/.test(l)) ?? plan[0] ?? ''
    log(
      `  call history (${driver}): GET /api/calls?leadId= of a lead with ${historyCalls} calls among ${(historyCalls + n + others).toLocaleString('en-IN')} (${listed} listed), 200 requests at 1 connection: p50 ${history.p50.toFixed(2)} ms, p99 ${history.p99.toFixed(2)} ms (goal p99 <= 20 ms); plan: ${plan[0]?.trim()} / ${first.trim()}`,
    )
    return {
      driver,
      callbacks: cb,
      history: {
        calls: historyCalls,
        listed,
        ...history,
        plan: plan.map((l) => l.trim()).join(' / '),
      },
    }
  } finally {
    await worker?.stop().catch(() => undefined)
    await t.close().catch(() => undefined)
    await fake.close().catch(() => undefined)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const load = loadavg().map((l) => l.toFixed(1))
  console.log(`Machine: ${cpus().length} cores, Node ${process.version}, load ${load.join(' ')}`)
  benchCalls(console.log).then(
    (r) => console.log(`BENCH-SUMMARY ${JSON.stringify({ calls: callsSummary(r) })}`),
    (error: unknown) => {
      console.error(error)
      process.exitCode = 1
    },
  )
}
