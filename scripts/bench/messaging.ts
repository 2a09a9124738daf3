// The messaging part (issue 25): a 10,000-recipient bulk SMS to the fake Twilio through the
// real app and the job queue. Measured: the time to enqueue (the request that writes the
// batch, the rows and the jobs in one transaction; goal <= 2 s), the throughput of sends to
// the provider, p50/p99 from enqueue to 'sent', the process's peak RSS while the worker
// sends, and the webhook status ingestion rate (scripts/bench/messaging-webhooks.ts; goal
// >= 1,000/s on PostgreSQL). On PostgreSQL when it answers (config.serverUrl), else PGlite.
//
//   BENCH_PARTS=messaging npm run bench          this part alone
//   BENCH_MESSAGING_RECIPIENTS=2000 ...           fewer recipients
import { sql } from 'drizzle-orm'
import { Worker } from '../../src/server/jobs/worker'
import { registerMessagingJobs } from '../../src/server/modules/messaging/send-job'
import { startFakeTwilio } from '../../tests/support/fakes/twilio'
import { call } from '../../tests/support/leads'
import { login } from '../../tests/support/login'
import {
  jobOptions,
  TWILIO_SID,
  TWILIO_TOKEN,
  configureTwilioSms,
} from '../../tests/support/messaging-send'
import { createTestApp, demoEmail, hospitalIdOf, queryRows } from '../../tests/support/test-app'
import { config } from './config'
import { benchMessagingWebhooks } from './messaging-webhooks'
import { postgresAnswers } from './postgres'

export interface MessagingResult {
  driver: 'postgres' | 'pglite'
  recipients: number
  enqueueMs: number
  sendSeconds: number
  sendsPerSecond: number
  enqueueToSentP50Ms: number
  enqueueToSentP99Ms: number
  peakRssMb: number
  webhookPerSecond: number | null
}

export async function benchMessaging(log: (line: string) => void): Promise<MessagingResult> {
  const recipients = Number(process.env.BENCH_MESSAGING_RECIPIENTS ?? 10_000)
  const onPostgres = await postgresAnswers()
  if (onPostgres) process.env.TEST_DATABASE_URL ??= config.serverUrl
  const t = await createTestApp({ logLevel: 'warn' })
  const fake = await startFakeTwilio({ [TWILIO_SID]: TWILIO_TOKEN })
  const base = jobOptions()
  const unregister = registerMessagingJobs({
    ...base,
    urls: { ...base.urls, twilio: fake.url },
    perHospitalPerMinute: 1_000_000,
  })
  try {
    const h = await hospitalIdOf(t.db, 'sanjeevani')
    await configureTwilioSms(t.db, h)
    const admin = await login(t.app, demoEmail('admin'))
    const phones = Array.from(
      { length: recipients },
      (_, i) => `+9194${String(i).padStart(8, '0')}`,
    )
    const leads = await queryRows<{ id: string }>(
      t.db,
      sql`insert into leads (hospital_id, name, phone, source)
          select ${h}, 'Bench ' || n, p, 'manual'
          from unnest(${`{${phones.join(',')}}`}::text[]) with ordinality as x(p, n)
          on conflict do nothing returning id`,
    )
    const t0 = performance.now()
    const res = await call(t.app, admin, 'POST', '/api/leads/bulk/message', {
      leadIds: leads.map((l) => l.id),
      type: 'sms',
      content: 'Free eye camp on Sunday, {name}',
    })
    const enqueueMs = performance.now() - t0
    if (res.statusCode !== 202) throw new Error(`bulk send answered ${res.statusCode}: ${res.body}`)
    const { batchId } = res.json() as { batchId: string }
    log(`  Enqueued ${leads.length} recipients in ${enqueueMs.toFixed(0)} ms (goal <= 2,000 ms)`)

    let peakRss = process.memoryUsage().rss
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss)
    }, 100)
    const worker = new Worker({
      database: t.database,
      concurrency: 8,
      perHospitalRunning: 8,
      pollMs: 50,
    })
    const s0 = performance.now()
    await worker.start()
    for (;;) {
      const [left] = await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from communications
            where batch_id = ${batchId} and status in ('queued', 'sending')`,
      )
      if (!left?.n) break
      await new Promise((r) => setTimeout(r, 200))
    }
    const sendSeconds = (performance.now() - s0) / 1000
    await worker.stop()
    clearInterval(sampler)
    const [lat] = await queryRows<{ p50: number; p99: number; sent: number }>(
      t.db,
      sql`select percentile_cont(0.5) within group (order by ms) as p50,
                 percentile_cont(0.99) within group (order by ms) as p99, count(*)::int as sent
          from (select extract(epoch from status_changed_at - created_at) * 1000 as ms
                from communications where batch_id = ${batchId} and status = 'sent') x`,
    )
    log(
      `  Sent ${lat?.sent ?? 0} (${fake.messages.length} at the fake) in ${sendSeconds.toFixed(1)} s: ${((lat?.sent ?? 0) / sendSeconds).toFixed(0)}/s; enqueue -> sent p50 ${Number(lat?.p50 ?? 0).toFixed(0)} ms, p99 ${Number(lat?.p99 ?? 0).toFixed(0)} ms; peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MB (app + worker, one process)`,
    )
    await fake.close()
    unregister()
    await t.close()
    let webhookPerSecond: number | null = null
    try {
      const w = await benchMessagingWebhooks(log, { messages: Math.min(recipients, 5_000) })
      webhookPerSecond = w.perSecond
      log(`  Webhook status callbacks: ${w.perSecond.toFixed(0)}/s (goal >= 1,000/s on PostgreSQL)`)
    } catch (error) {
      log(`  Webhook ingestion not measured: ${(error as Error).message}`)
    }
    return {
      driver: t.database.driver === 'postgres' ? 'postgres' : 'pglite',
      recipients: leads.length,
      enqueueMs: Math.round(enqueueMs),
      sendSeconds: Number(sendSeconds.toFixed(1)),
      sendsPerSecond: Math.round((lat?.sent ?? 0) / sendSeconds),
      enqueueToSentP50Ms: Math.round(Number(lat?.p50 ?? 0)),
      enqueueToSentP99Ms: Math.round(Number(lat?.p99 ?? 0)),
      peakRssMb: Math.round(peakRss / 2 ** 20),
      webhookPerSecond: webhookPerSecond === null ? null : Math.round(webhookPerSecond),
    }
  } catch (error) {
    unregister()
    await fake.close().catch(() => undefined)
    await t.close().catch(() => undefined)
    throw error
  }
}
