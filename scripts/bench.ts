// npm run bench: the patient list and search of the built server under load, on PostgreSQL
// and on embedded PGlite, with 100,000 patients in the benched hospital (Sanjeevani; the
// other demo hospitals as the demo seed makes them). Per database: the list's first page, a
// common surname and a rare one at 10 connections, the same SQL run directly, restart time
// and memory; on PostgreSQL also 1 vs 2 instances and compression; on PGlite also PGlite in
// a worker thread (prototype). Ends with one `BENCH-SUMMARY {json}` line.
//
//   BENCH_PATIENTS=5000 BENCH_SECONDS=3 npm run bench      quick run
//   BENCH_TARGET=/tmp/bench-before npm run bench            another checkout's server
//   BENCH_PARTS=postgres,pglite npm run bench               only some parts
// Parts: postgres, instances, compression, pglite, worker, leads (100,000 leads: the list with
// each filter and /api/stats at 1 connection, a CSV import, signed webhook deliveries), jobs
// (issue 24: B's 10 jobs behind A's 5,000, throughput, the claim at 100,000 due jobs; alone:
// BENCH_PARTS=jobs npm run bench), messaging (issue 25: a 10,000-recipient bulk SMS to the fake
// Twilio: enqueue time, sends/s, enqueue -> sent p99, RSS, webhook ingestion; alone:
// BENCH_PARTS=messaging npm run bench), appointments and billing (issue 26: a week of
// appointments among 100,000, and the invoice list and summary over 100,000 invoices, at 1
// connection with the raw SQL beside them, and PDF time per invoice; alone:
// BENCH_PARTS=appointments,billing npm run bench), storage (issue 28: a 50 MB attachment
// through receiveUpload and back as a download, MB/s and RSS growth; alone:
// BENCH_PARTS=storage npm run bench), backup (issue 29: back up and restore a hospital with
// 50,000 patients, 100,000 leads and 100,000 invoices: times, file size, peak RSS; alone:
// BENCH_PARTS=backup npm run bench), calls (issue 41: signed Twilio voice callbacks processed
// per second, and the call history of a lead with 1,000 calls; alone: BENCH_PARTS=calls npm
// run bench). Scratch data only: a database created on
// BENCH_DATABASE_URL's (or TEST_DATABASE_URL's) server and dropped, a temp DATA_DIR.
import { benchAppointments, type AppointmentsResult } from './bench/appointments'
import { benchBackup, type BackupResult } from './bench/backup'
import { benchBilling, type BillingResult } from './bench/billing'
import { benchCalls, type CallsResult } from './bench/calls'
import { benchCampaigns, type CampaignsResult } from './bench/campaigns'
import { benchCompression } from './bench/compression'
import { config } from './bench/config'
import { benchJobs, type JobsResult } from './bench/jobs'
import { scenarios } from './bench/measure'
import { benchLeadsPart, type LeadsResult } from './bench/leads'
import { benchMessaging, type MessagingResult } from './bench/messaging'
import { benchPglite, type PgliteResult } from './bench/pglite'
import { benchPostgres, postgresAnswers, type PostgresResult } from './bench/postgres'
import {
  callsSummary,
  campaignsSummary,
  leadsReport,
  machine,
  report,
  summaryLine,
  targets,
} from './bench/report'
import { benchPatients } from './bench/seed'
import { surnames } from './bench/people'
import { ensureBuilt } from './bench/server'
import { benchStorage, type StorageResult, storageSummary } from './bench/storage'

const log = (line: string) => console.log(line)

/** The surname most rows carry (about 3 % each; ties go to the first in the list). */
function commonest(rows: ReturnType<typeof benchPatients>): string {
  const counts = new Map<string, number>()
  for (const r of rows) {
    const last = String(r.name).split(' ').at(-1)!
    counts.set(last, (counts.get(last) ?? 0) + 1)
  }
  const best = surnames.reduce((a, b) => ((counts.get(b) ?? 0) > (counts.get(a) ?? 0) ? b : a))
  return best.toLowerCase()
}

async function main(): Promise<void> {
  console.log('Arogya CRM benchmark (npm run bench)')
  for (const line of machine()) console.log(`  ${line}`)
  // The jobs part alone needs neither the built server nor the patients.
  const serverParts = ['postgres', 'instances', 'pglite', 'worker', 'leads', 'compression']
  if (serverParts.some((part) => config.parts(part))) ensureBuilt(config.target)
  const rows = serverParts.some((part) => config.parts(part)) ? benchPatients(config.patients) : []
  const count = (term: string) =>
    rows.filter((r) => `${String(r.name)} ${String(r.email)}`.toLowerCase().includes(term)).length
  const list = scenarios(commonest(rows), count, rows.length)

  let pgRes: PostgresResult | null = null
  let lite: PgliteResult | null = null
  if (config.parts('postgres') || config.parts('instances')) {
    console.log('\n== PostgreSQL ==')
    if (await postgresAnswers()) pgRes = await benchPostgres(list, rows, log)
  }
  if (config.parts('pglite') || config.parts('worker')) {
    console.log('\n== PGlite ==')
    lite = await benchPglite(list, rows, log)
  }
  let leads: LeadsResult | null = null
  if (config.parts('leads')) {
    console.log('\n== Leads (PostgreSQL) ==')
    if (await postgresAnswers()) leads = await benchLeadsPart(log)
  }
  let jobs: JobsResult | null = null
  if (config.parts('jobs')) {
    console.log('\n== Jobs (issue 24) ==')
    jobs = await benchJobs(log, { postgres: await postgresAnswers() })
  }
  let messaging: MessagingResult | null = null
  if (config.parts('messaging')) {
    console.log('\n== Messaging (issue 25): bulk send to the fake Twilio ==')
    messaging = await benchMessaging(log)
  }
  let appointments: AppointmentsResult | null = null
  if (config.parts('appointments')) {
    console.log('\n== Appointments (issue 26): a week among many ==')
    appointments = await benchAppointments(log)
  }
  let billing: BillingResult | null = null
  if (config.parts('billing')) {
    console.log('\n== Billing (issue 26): the invoice list, summary and PDFs ==')
    billing = await benchBilling(log)
  }
  let storage: StorageResult | null = null
  if (config.parts('storage')) {
    console.log('\n== Storage (issue 28): a 50 MB attachment in and out ==')
    storage = await benchStorage(log)
  }
  let campaigns: CampaignsResult | null = null
  if (config.parts('campaigns')) {
    console.log('\n== Campaigns (issue 28): the campaign summary over many leads ==')
    campaigns = await benchCampaigns(log)
  }
  let backup: BackupResult | null = null
  if (config.parts('backup')) {
    console.log('\n== Backups (issue 29): back up and restore a large hospital ==')
    backup = await benchBackup(log)
  }
  let calls: CallsResult | null = null
  if (config.parts('calls')) {
    console.log("\n== Calls (issue 41): voice callbacks and a lead's call history ==")
    if (await postgresAnswers()) process.env.TEST_DATABASE_URL ??= config.serverUrl
    calls = await benchCalls(log)
  }
  const compression =
    pgRes?.page && config.parts('compression') ? benchCompression(pgRes.page) : null
  if (pgRes) {
    console.log('\nSQL of one common-surname search, as sent (tenant transaction):')
    for (const s of pgRes.sql.common?.transaction ?? [])
      console.log(`  ${s.text.replace(/\s+/g, ' ')}  ${JSON.stringify(s.params)}`)
    console.log('Its plan (EXPLAIN ANALYZE under the tenant):')
    for (const line of pgRes.plans.common ?? []) console.log(`  ${line}`)
  }
  for (const line of report(list, pgRes, lite, compression)) console.log(line)
  for (const line of targets(pgRes, lite)) console.log(line)
  if (leads) for (const line of leadsReport(leads)) console.log(line)
  console.log('')
  console.log(
    summaryLine(pgRes, lite, leads, jobs, {
      ...(messaging ? { messaging } : {}),
      ...(appointments ? { appointments } : {}),
      ...(billing ? { billing } : {}),
      ...(backup
        ? {
            backup: {
              driver: backup.driver,
              rows: backup.rows,
              backup_s: Number(backup.backupS.toFixed(1)),
              restore_s: Number(backup.restoreS.toFixed(1)),
              file_mb: Number(backup.fileMb.toFixed(1)),
              peak_rss_mb: Math.round(backup.peakRssMb),
            },
          }
        : {}),
      ...(calls ? { calls: callsSummary(calls) } : {}),
      ...(storage || campaigns
        ? {
            growth: {
              ...(storage ? storageSummary(storage) : {}),
              ...(campaigns ? { campaigns: campaignsSummary(campaigns) } : {}),
            },
          }
        : {}),
    }),
  )
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
