import type { CallsResult } from './calls'
import type { CampaignsResult } from './campaigns'
// Tables for the terminal, and the one summary line for machines.
import { cpus, loadavg, totalmem } from 'node:os'
import { execFileSync } from 'node:child_process'
import type { CodecResult } from './compression'
import { config } from './config'
import type { Load } from './load'
import type { Measured, Scenario } from './measure'
import type { JobsDriverResult, JobsResult } from './jobs'
import type { LeadsResult } from './leads'
import type { PgliteResult } from './pglite'
import type { PostgresResult } from './postgres'

export function machine(): string[] {
  const cpu = cpus()
  const git = (args: string[]) => {
    try {
      return execFileSync('git', ['-C', config.target, ...args], { encoding: 'utf8' }).trim()
    } catch {
      return '?'
    }
  }
  const dirty = git(['status', '--porcelain', '--untracked-files=no'])
    ? ' + uncommitted changes'
    : ''
  return [
    `Benched: ${config.target} at ${git(['rev-parse', '--short', 'HEAD'])}${dirty} (${git(['log', '-1', '--format=%s']).slice(0, 70)})`,
    `Machine: ${cpu[0]?.model ?? 'unknown'} x ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
    `Date:    ${new Date().toISOString()}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (other work skews figures)`,
    `Load:    ${config.connections} connections, ${config.seconds} s per figure, generator on the same cores`,
  ]
}

const f = (n: number | null | undefined, digits = 1) =>
  n === null || n === undefined || Number.isNaN(n) ? '-' : n.toFixed(digits)

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) =>
    `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')}`
  return [line(header), `  ${widths.map((w) => '-'.repeat(w)).join('  ')}`, ...rows.map(line)]
}

const httpRow = (s: Scenario, m: Measured | undefined, extra: string[] = []) => [
  s.label,
  m?.matches != null ? f(m.matches, 0) : `~${s.rows}`,
  f(m?.rps, 0),
  f(m?.p50),
  f(m?.p99),
  f(m?.serverCpuMs, 2),
  f(m?.dbCpuMs, 2),
  ...extra,
]

export function report(
  list: Scenario[],
  pgRes: PostgresResult | null,
  lite: PgliteResult | null,
  compression: { page: CodecResult[]; sizes: CodecResult[] } | null,
): string[] {
  const out: string[] = []
  const head = [
    'request (page of 30)',
    'matches',
    'req/s',
    'p50 ms',
    'p99 ms',
    'node CPU ms/req',
    'pg CPU ms/req',
  ]
  if (pgRes) {
    out.push('', `PostgreSQL (${pgRes.version}), 1 instance:`)
    out.push(
      ...table(
        [...head, 'round trips', 'SQL p50', 'SQL p99', 'HTTP/SQL p50'],
        list.map((s) => {
          const d: Load | undefined = pgRes.direct[s.key]
          const h = pgRes.http[s.key]
          return httpRow(s, h, [
            String(pgRes.sql[s.key]?.roundTrips ?? '-'),
            f(d?.p50),
            f(d?.p99),
            h && d ? `${(h.p50 / d.p50).toFixed(2)}x` : '-',
          ])
        }),
      ),
    )
    if (pgRes.instances.length) {
      out.push('', 'PostgreSQL, 1 vs 2 instances (connections split evenly):')
      out.push(
        ...table(
          ['request', '1: req/s', 'p50', 'p99', '2: req/s', 'p50', 'p99'],
          pgRes.instances.map((i) => [
            list.find((s) => s.key === i.key)?.label ?? i.key,
            f(i.one.rps, 0),
            f(i.one.p50),
            f(i.one.p99),
            f(i.two.rps, 0),
            f(i.two.p50),
            f(i.two.p99),
          ]),
        ),
      )
    }
  }
  if (lite) {
    out.push('', 'PGlite (embedded):')
    out.push(
      ...table(
        head,
        list.map((s) => httpRow(s, lite.http[s.key])),
      ),
    )
    if (lite.worker) {
      out.push('', 'PGlite on the event-loop thread vs in a worker thread (prototype, same app):')
      out.push(
        ...table(
          ['mode, request', 'req/s', 'p50 ms', 'p99 ms', 'node CPU ms/req', 'loop delay p99 ms'],
          lite.worker.rows.map((r) => [
            `${r.mode}, ${list.find((s) => s.key === r.key)?.label ?? r.key}`,
            f(r.result.rps, 0),
            f(r.result.p50),
            f(r.result.p99),
            f(r.result.serverCpuMs, 2),
            f(r.loop.p99),
          ]),
        ),
      )
    }
  }
  const starts: string[][] = []
  if (pgRes)
    starts.push([
      'PostgreSQL',
      f(pgRes.seedMs / 1000),
      f(pgRes.firstStartMs, 0),
      f(pgRes.restartMs, 0),
      f(pgRes.rssMb, 0),
    ])
  if (lite)
    starts.push([
      'PGlite',
      f(lite.seedMs / 1000),
      f(lite.firstStartMs, 0),
      f(lite.restartMs, 0),
      f(lite.rssMb, 0),
    ])
  if (starts.length) {
    out.push('', `Start-up and memory (${config.patients.toLocaleString('en-IN')} patients):`)
    out.push(
      ...table(['database', 'bulk insert s', 'first start ms', 'restart ms', 'RSS MB'], starts),
    )
  }
  if (compression) {
    out.push('', 'Compression of one page of 30 patients (CPU per response):')
    out.push(
      ...table(
        ['codec', 'bytes in', 'bytes out', 'CPU µs'],
        [...compression.page, ...compression.sizes].map((c) => [
          c.name,
          String(c.inBytes),
          String(c.outBytes),
          f(c.cpuUs, 0),
        ]),
      ),
    )
    if (pgRes?.encodings.length) {
      out.push('', 'List under load by Accept-Encoding (PostgreSQL, 1 instance):')
      out.push(
        ...table(
          ['encoding', 'bytes/response', 'req/s', 'p99 ms', 'node CPU ms/req'],
          pgRes.encodings.map((e) => [
            e.encoding,
            f(e.result.bytes, 0),
            f(e.result.rps, 0),
            f(e.result.p99),
            f(e.result.serverCpuMs, 2),
          ]),
        ),
      )
    }
  }
  return out
}

/** Issue 16's targets for this 2-vCPU machine, each MET or MISSED. */
export function targets(pgRes: PostgresResult | null, lite: PgliteResult | null): string[] {
  const out = ['', 'Targets (issue 16, 2 vCPUs):']
  const check = (name: string, value: number | undefined, limit: number, unit: string) => {
    if (value === undefined || Number.isNaN(value)) return
    const verdict = value <= limit ? 'MET   ' : 'MISSED'
    out.push(
      `  ${verdict} ${name}: ${value.toFixed(unit === 'x' ? 2 : 0)}${unit} (<= ${limit}${unit})`,
    )
  }
  const h = pgRes?.http
  check('PostgreSQL list p99', h?.list?.p99, 50, ' ms')
  check('PostgreSQL common search p99', h?.common?.p99, 100, ' ms')
  if (h?.common && h.rare)
    check('common search p99 / rare search p99', h.common.p99 / h.rare.p99, 2, 'x')
  for (const key of ['list', 'common', 'rare']) {
    const api = h?.[key]?.p50
    const direct = pgRes?.direct[key]?.p50
    if (api && direct) check(`API p50 / direct SQL p50, ${key}`, api / direct, 1.3, 'x')
  }
  if (lite?.http.list && h?.list)
    check('PGlite list p99 / PostgreSQL list p99', lite.http.list.p99 / h.list.p99, 2, 'x')
  check('RSS, PostgreSQL server', pgRes?.rssMb, 300, ' MB')
  check('RSS, PGlite server', lite?.rssMb, 300, ' MB')
  check('restart on an existing DATA_DIR', lite?.restartMs, 2000, ' ms')
  return out
}

/** The leads part's table: each request at 1 connection beside its SQL, import, webhook. */
export function leadsReport(r: LeadsResult): string[] {
  const out = [
    '',
    `Leads (issue 8): ${r.leads.toLocaleString('en-IN')} leads in the benched hospital, PostgreSQL, 1 connection (goal p99 <= 30 ms)`,
    ...table(
      ['request', 'req/s', 'p50 ms', 'p99 ms', 'SQL p50', 'SQL p99', 'round trips'],
      r.requests.map((q) => [
        q.label,
        f(q.http.rps, 0),
        f(q.http.p50),
        f(q.http.p99),
        f(q.sql.p50),
        f(q.sql.p99),
        String(q.roundTrips),
      ]),
    ),
  ]
  if (r.import) {
    const i = r.import
    out.push(
      `  CSV import of ${i.rows.toLocaleString('en-IN')} rows: ${i.status} in ${f(i.ms / 1000)} s (${f((i.rows / i.ms) * 1000, 0)} rows/s; ${i.created} new, ${i.merged} merged, ${i.failed} refused; goal <= 10 s)`,
    )
  }
  if (r.webhook) {
    const w = r.webhook
    out.push(
      `  Webhook: ${w.deliveries} signed deliveries (${w.unique} leads, 20 % repeats) acknowledged at ${f(w.ackPerSecond, 0)}/s (p50 ${f(w.ackP50)} ms, p99 ${f(w.ackP99)} ms; goal >= 500/s); all stored ${f(w.storedMs / 1000)} s after the first, once each: ${w.storedOnce}`,
    )
  }
  return out
}

export function summaryLine(
  pgRes: PostgresResult | null,
  lite: PgliteResult | null,
  leads: LeadsResult | null = null,
  jobs: JobsResult | null = null,
  /** Further parts' figures under their own key (messaging). */
  extra: Record<string, unknown> = {},
): string {
  const round = (n: number | undefined, digits = 1) =>
    n === undefined || Number.isNaN(n) ? null : Number(n.toFixed(digits))
  const list = pgRes?.http.list
  const summary = {
    patients: config.patients,
    postgres: pgRes
      ? {
          list_p99_ms: round(list?.p99),
          search_common_p99_ms: round(pgRes.http.common?.p99),
          search_rare_p99_ms: round(pgRes.http.rare?.p99),
          api_sql_ratio_p50: round(
            (pgRes.http.common?.p50 ?? NaN) / (pgRes.direct.common?.p50 ?? NaN),
            2,
          ),
        }
      : null,
    pglite: lite ? { list_p99_ms: round(lite.http.list?.p99) } : null,
    // The embedded database's restart (the "existing DATA_DIR"), else PostgreSQL's.
    restart_ms: round(lite?.restartMs ?? pgRes?.restartMs, 0),
    rss_mb: pgRes || lite ? round(Math.max(lite?.rssMb ?? 0, pgRes?.rssMb ?? 0), 0) : null,
    ...(leads
      ? {
          leads: {
            count: leads.leads,
            p99_ms: Object.fromEntries(leads.requests.map((q) => [q.key, round(q.http.p99)])),
            sql_p99_ms: Object.fromEntries(leads.requests.map((q) => [q.key, round(q.sql.p99)])),
            import_rows: leads.import?.rows ?? null,
            import_s: leads.import ? round(leads.import.ms / 1000) : null,
            webhook_ack_per_s: leads.webhook ? round(leads.webhook.ackPerSecond, 0) : null,
            webhook_stored_once: leads.webhook?.storedOnce ?? null,
          },
        }
      : {}),
    ...(jobs
      ? { jobs: { postgres: jobsSummary(jobs.postgres), pglite: jobsSummary(jobs.pglite) } }
      : {}),
    ...extra,
  }
  return `BENCH-SUMMARY ${JSON.stringify(summary)}`
}

/** Issue 24's figures per driver: B's 10 behind A's 5,000, throughput, the claim at 100k. */
function jobsSummary(r: JobsDriverResult | null) {
  if (!r) return null
  return {
    b_10_ms: Math.round(r.bTenMs),
    a_ran_meanwhile: r.aRanMeanwhile,
    a_waiting: r.aWaiting,
    jobs_per_s: Math.round(r.perSecond),
    jobs_per_s_one_hospital: Math.round(r.perSecondOneHospital),
    claim_ms_100k: Number(r.claimMs100k.toFixed(2)),
  }
}

/** Issue 28's growth line: the campaign summary over N leads (target p99 ≤ 30 ms). */
export function campaignsSummary(r: CampaignsResult) {
  const round = (n: number) => Number(n.toFixed(1))
  return {
    driver: r.driver,
    leads: r.leads,
    summary_p99_ms: round(r.summary.p99),
    summary_sql_p99_ms: round(r.summary.sqlP99),
    within_target: r.summary.p99 <= 30,
  }
}

/** BENCH-SUMMARY's `calls` (issue 41). */
export function callsSummary(r: CallsResult) {
  const round = (x: number, digits = 1) => Number(x.toFixed(digits))
  const c = r.callbacks
  return {
    driver: r.driver,
    callbacks: c.callbacks,
    callbacks_answered_per_s: Math.round(c.answeredPerSecond),
    callback_p99_ms: round(c.p99),
    callbacks_processed_per_s: Math.round(c.processedPerSecond),
    callbacks_goal_met: c.processedPerSecond >= 1_000,
    cpu_ms_per_callback: round(c.cpuMsPerCallback, 2),
    all_ended_once: c.allEnded && c.communications === c.calls,
    history_calls: r.history.calls,
    history_p50_ms: round(r.history.p50, 2),
    history_p99_ms: round(r.history.p99, 2),
    history_goal_met: r.history.p99 <= 20,
    history_uses_index: /calls_hospital_lead_idx/.test(r.history.plan),
  }
}
