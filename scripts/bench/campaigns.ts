// The campaigns part (issue 28): GET /api/campaigns (every campaign's leads, conversions and
// revenue counted from leads and paid invoices, plus the four summary figures) over N leads in
// one hospital (default 100,000; BENCH_CAMPAIGN_LEADS), 70 % of them carrying one of 8
// campaigns' link keys; p50/p99 of sequential requests through the real app at 1 connection,
// with the raw counting SQL beside it. Target: p99 ≤ 30 ms. On PostgreSQL when it answers.
//
//   npx tsx scripts/bench/campaigns.ts
import { sql } from 'drizzle-orm'
import { withTenant } from '../../src/server/db/tenant'
import { countCampaigns } from '../../src/server/modules/campaigns/campaign-counts'
import type { CampaignList } from '../../src/shared/schemas/campaigns'
import { campaignCall } from '../../tests/support/campaigns'
import { login } from '../../tests/support/login'
import { createTestApp, demoEmail, hospitalIdOf, queryRows } from '../../tests/support/test-app'
import { config } from './config'
import { percentile } from './load'
import { postgresAnswers } from './postgres'

export interface CampaignsResult {
  driver: 'postgres' | 'pglite'
  leads: number
  summary: { p50: number; p99: number; sqlP50: number; sqlP99: number }
}

async function timed(runs: number, fn: () => Promise<unknown>) {
  for (let i = 0; i < 10; i++) await fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    await fn()
    times.push(performance.now() - t0)
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) }
}

export async function benchCampaigns(log: (line: string) => void): Promise<CampaignsResult> {
  const n = Number(process.env.BENCH_CAMPAIGN_LEADS ?? 100_000)
  const runs = Number(process.env.BENCH_CAMPAIGN_RUNS ?? 200)
  const onPostgres = await postgresAnswers()
  if (onPostgres) process.env.TEST_DATABASE_URL ??= config.serverUrl
  const t = await createTestApp({ logLevel: 'warn' })
  try {
    const h = await hospitalIdOf(t.db, 'sanjeevani')
    const cookie = await login(t.app, demoEmail('admin'))
    const t0 = performance.now()
    await queryRows(
      t.db,
      sql`insert into campaigns (hospital_id, name, type, status, budget, spent, start_date,
            meta_form_id, lead_campaign)
          select ${h}, 'Bench campaign ' || g, 'facebook', 'active', 10000000, 5000000,
            '2026-01-01', case when g % 2 = 0 then 'benchform' || g end, 'Bench campaign ' || g
          from generate_series(1, 8) g`,
    )
    await queryRows(
      t.db,
      sql`insert into leads (hospital_id, name, phone, source, status, campaign, meta_form_id, created_at)
          select ${h}, 'Bench lead ' || g, '+9170' || lpad(g::text, 8, '0'), 'meta-facebook', 'new',
            case when g % 10 < 7 then 'Bench campaign ' || (1 + g % 8) else 'Unlinked ' || (g % 50) end,
            case when g % 10 < 7 and (1 + g % 8) % 2 = 0 then 'benchform' || (1 + g % 8) end,
            now() - (g || ' minutes')::interval
          from generate_series(1, ${n}) g`,
    )
    await queryRows(t.db, sql`vacuum analyze leads`)
    await queryRows(t.db, sql`analyze campaigns`)
    log(
      `  ${n.toLocaleString('en-IN')} leads inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s (${onPostgres ? 'PostgreSQL' : 'PGlite'})`,
    )
    const get = async () => {
      const res = await campaignCall(t.app, cookie, 'GET', '/api/campaigns')
      if (res.statusCode !== 200) throw new Error(`campaigns: ${res.statusCode} ${res.body}`)
      return res
    }
    const total = (await get()).json<CampaignList>().summary.totalLeads
    log(`  the summary counts ${total.toLocaleString('en-IN')} linked leads`)
    const ctx = { hospitalId: h, userId: null }
    const rows = await withTenant(t.db, ctx, (tx) =>
      tx.execute(
        sql`select lead_campaign as "leadCampaign", meta_form_id as "metaFormId" from campaigns`,
      ),
    )
    const links = (
      rows as unknown as { rows: { leadCampaign: string; metaFormId: string | null }[] }
    ).rows
    const api = await timed(runs, get)
    const raw = await timed(runs, () => withTenant(t.db, ctx, (tx) => countCampaigns(tx, h, links)))
    const summary = { ...api, sqlP50: raw.p50, sqlP99: raw.p99 }
    log(
      `  GET /api/campaigns (${links.length} campaigns over ${n.toLocaleString('en-IN')} leads): p50 ${api.p50.toFixed(2)} ms, p99 ${api.p99.toFixed(2)} ms; counting SQL p50 ${raw.p50.toFixed(2)} ms, p99 ${raw.p99.toFixed(2)} ms (target p99 ≤ 30 ms)`,
    )
    return { driver: onPostgres ? 'postgres' : 'pglite', leads: n, summary }
  } finally {
    await t.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('== Campaigns (issue 28) ==')
  benchCampaigns((line) => console.log(line))
    .then((r) => console.log(`campaigns: ${JSON.stringify(r)}`))
    .catch((error: unknown) => {
      console.error(error)
      process.exitCode = 1
    })
}
