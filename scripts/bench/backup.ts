// The backup part (issue 29): one hospital with 50,000 patients, 100,000 leads and 100,000
// invoices (seeded with generate_series), backed up with every data type (archive, encryption,
// storage) and restored in replace mode after its tables are wiped. Prints times, the file
// size and peak RSS (both stream: memory should stay flat). Goals: backup <= 15 s, restore
// <= 30 s. On PostgreSQL when BENCH_DATABASE_URL / TEST_DATABASE_URL answers, else PGlite.
//
//   npx tsx scripts/bench/backup.ts                    this part alone
//   BENCH_PARTS=backup npm run bench                   the same through npm run bench
//   BENCH_BACKUP_SCALE=0.1 npx tsx scripts/bench/backup.ts   a tenth of the rows
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { Worker } from '../../src/server/jobs/worker'
import { RESTORE_ORDER } from '../../src/server/modules/backups/backup-archive'
import {
  BACKUP_RESTORE_JOB,
  BACKUP_RUN_JOB,
} from '../../src/server/modules/backups/backups.service'
import { resetStorageForTests } from '../../src/server/storage/storage'
import type { BackupLog, RestoreRun } from '../../src/shared/schemas/backup'
import { call } from '../../tests/support/leads'
import { login } from '../../tests/support/login'
import { createTestApp, demoEmail, hospitalIdOf, queryRows } from '../../tests/support/test-app'
import { config } from './config'
import { postgresAnswers } from './postgres'

export interface BackupResult {
  driver: 'postgres' | 'pglite'
  rows: number
  seedS: number
  backupS: number
  restoreS: number
  fileMb: number
  peakRssMb: number
  rssBeforeMb: number
  backupPeakRssMb: number
  restorePeakRssMb: number
  backupPeakHeapMb: number
  restorePeakHeapMb: number
}

/** Peak RSS and peak V8 heap in use while it runs (sampled every 20 ms). */
function rssPeak(): { stop: () => { rss: number; heap: number } } {
  let peak = process.memoryUsage.rss()
  let heap = process.memoryUsage().heapUsed
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
    heap = Math.max(heap, process.memoryUsage().heapUsed)
  }, 20)
  return {
    stop: () => {
      clearInterval(timer)
      return { rss: Math.max(peak, process.memoryUsage.rss()), heap }
    },
  }
}

const MB = 1024 * 1024

export async function benchBackup(log: (line: string) => void): Promise<BackupResult> {
  const scale = Number(process.env.BENCH_BACKUP_SCALE ?? 1)
  const patients = Math.round(50_000 * scale)
  const leads = Math.round(100_000 * scale)
  const invoices = Math.round(100_000 * scale)
  const onPostgres = await postgresAnswers()
  if (onPostgres) process.env.TEST_DATABASE_URL ??= config.serverUrl
  const dataDir = mkdtempSync(join(tmpdir(), 'arogya-bench-backup-'))
  const previous = process.env.DATA_DIR
  process.env.DATA_DIR = dataDir
  resetStorageForTests()
  const t = await createTestApp({ logLevel: 'warn' })
  const worker = new Worker({
    database: t.database,
    names: [BACKUP_RUN_JOB, BACKUP_RESTORE_JOB],
    pollMs: 20,
    progressMs: 0,
    backoff: () => 10,
  })
  try {
    const h = await hospitalIdOf(t.db, 'sanjeevani')
    const cookie = await login(t.app, demoEmail('admin'))
    const t0 = performance.now()
    await queryRows(
      t.db,
      sql`insert into patients (hospital_id, name, email, phone, gender, date_of_birth, address,
            medical_history, created_at, updated_at, patient_number)
          select ${h}, 'Bench Patient ' || g, 'bench' || g || '@example.in',
            '+9180' || lpad(g::text, 8, '0'), (array['male','female'])[1 + g % 2],
            date '1960-01-01' + (g % 20000), g || ' MG Road, Bengaluru', 'Hypertension; on amlodipine',
            now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval,
            'BENCH-' || lpad(g::text, 7, '0')
          from generate_series(1, ${patients}) g`,
    )
    await queryRows(
      t.db,
      sql`insert into leads (hospital_id, name, email, phone, source, status, notes, created_at, updated_at)
          select ${h}, 'Bench lead ' || g, 'lead' || g || '@example.in', '+9170' || lpad(g::text, 8, '0'),
            'meta-facebook', 'new', 'Asked about a knee replacement package',
            now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
          from generate_series(1, ${leads}) g`,
    )
    const [patient] = await queryRows<{ id: string; name: string }>(
      t.db,
      sql`select id, name from patients where hospital_id = ${h} limit 1`,
    )
    await queryRows(
      t.db,
      sql`insert into invoices (hospital_id, invoice_number, financial_year, sequence, patient_id,
            patient_name, kind, status, subtotal, taxable_total, amount, amount_paid, issue_date,
            due_date, created_at)
          select ${h}, 'BENCH/2015-16/' || lpad(g::text, 6, '0'), '2015-16', g, ${patient!.id},
            ${patient!.name}, 'bill_of_supply', 'pending', 50000, 50000, 50000, 0, d::date, d::date + 7, d
          from generate_series(1, ${invoices}) g
          cross join lateral (select now() - (g || ' minutes')::interval as d) t`,
    )
    // As autovacuum would after a load this size: without statistics the planner guesses a few
    // dozen rows a hospital and pages by sorting instead of walking the primary key.
    if (onPostgres) await queryRows(t.db, sql`analyze patients, leads, invoices`)
    const seedS = (performance.now() - t0) / 1000
    const [{ n: rows } = { n: 0 }] = await queryRows<{ n: number }>(
      t.db,
      sql`select (${sql.join(
        RESTORE_ORDER.map(
          (tb) => sql`(select count(*) from ${sql.identifier(tb)} where hospital_id = ${h})`,
        ),
        sql` + `,
      )})::int as n`,
    )
    log(
      `  ${rows.toLocaleString('en-IN')} rows in the backed-up tables, seeded in ${seedS.toFixed(1)} s (${onPostgres ? 'PostgreSQL' : 'PGlite'})`,
    )
    await worker.start()
    const rssBefore = process.memoryUsage.rss()
    const heapBefore = process.memoryUsage().heapUsed
    let peak = rssPeak()

    const b0 = performance.now()
    const started = await call(t.app, cookie, 'POST', '/api/backup/run-now', {})
    if (started.statusCode !== 202)
      throw new Error(`run-now: ${started.statusCode} ${started.body}`)
    let logRow: BackupLog = started.json<{ log: BackupLog }>().log
    while (logRow.status === 'running') {
      await new Promise((r) => setTimeout(r, 100))
      logRow = (await call(t.app, cookie, 'GET', `/api/backup/logs/${logRow.id}`)).json<{
        log: BackupLog
      }>().log
    }
    if (logRow.status !== 'success') throw new Error(`backup failed: ${logRow.error}`)
    const backupS = (performance.now() - b0) / 1000
    const backupPeak = peak.stop()
    const fileMb = (logRow.dataSize ?? 0) / MB
    log(
      `  backup: ${backupS.toFixed(1)} s for ${logRow.recordCount?.toLocaleString('en-IN')} rows, file ${fileMb.toFixed(1)} MB (goal <= 15 s)`,
    )

    // Wipe the hospital's backed-up tables (not timed). The referencing tables are vacuumed
    // before patients go: leads.patient_id has no index, and each deleted patient's foreign-key
    // check would otherwise scan 100,000 dead leads.
    for (const table of [...RESTORE_ORDER].reverse()) {
      if (table === 'patients' && onPostgres) {
        await queryRows(t.db, sql`vacuum analyze leads, invoices, appointments, payments`)
      }
      await queryRows(t.db, sql`delete from ${sql.identifier(table)} where hospital_id = ${h}`)
    }
    const rssBeforeRestore = process.memoryUsage.rss()
    peak = rssPeak()
    const r0 = performance.now()
    const restoreStart = await call(t.app, cookie, 'POST', '/api/backup/restore', {
      source: { logId: logRow.id },
      mode: 'replace',
    })
    if (restoreStart.statusCode !== 202)
      throw new Error(`restore: ${restoreStart.statusCode} ${restoreStart.body}`)
    let restore: RestoreRun = restoreStart.json<{ restore: RestoreRun }>().restore
    while (restore.status === 'running') {
      await new Promise((r) => setTimeout(r, 100))
      restore = (await call(t.app, cookie, 'GET', `/api/backup/restores/${restore.id}`)).json<{
        restore: RestoreRun
      }>().restore
    }
    if (restore.status !== 'success') throw new Error(`restore failed: ${restore.error}`)
    const restoreS = (performance.now() - r0) / 1000
    const restorePeak = peak.stop()
    const peakRss = Math.max(backupPeak.rss, restorePeak.rss)
    log(`  restore (replace, after wiping): ${restoreS.toFixed(1)} s (goal <= 30 s)`)
    const mb = (n: number) => `${(n / MB).toFixed(0)} MB`
    log(
      `  RSS: ${mb(rssBefore)} before; backup peak ${mb(backupPeak.rss)} (V8 heap in use ${mb(heapBefore)} -> peak ${mb(backupPeak.heap)}); restore from ${mb(rssBeforeRestore)}, peak ${mb(restorePeak.rss)} (heap peak ${mb(restorePeak.heap)})`,
    )
    return {
      driver: onPostgres ? 'postgres' : 'pglite',
      rows,
      seedS,
      backupS,
      restoreS,
      fileMb,
      peakRssMb: peakRss / MB,
      rssBeforeMb: rssBefore / MB,
      backupPeakRssMb: backupPeak.rss / MB,
      restorePeakRssMb: restorePeak.rss / MB,
      backupPeakHeapMb: backupPeak.heap / MB,
      restorePeakHeapMb: restorePeak.heap / MB,
    }
  } finally {
    await worker.stop()
    await t.close()
    process.env.DATA_DIR = previous
    resetStorageForTests()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchBackup((line) => console.log(line))
  console.log(`BENCH-SUMMARY ${JSON.stringify({ backup: result })}`)
}
