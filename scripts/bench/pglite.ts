// The embedded half: a temp DATA_DIR seeded by the server's first start, bench patients
// added in bulk, a restart timed on the existing data, then load.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin'
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { BENCH_HOSPITAL_EMAIL, config } from './config'
import { matches, type Measured, measure, type Scenario, serversRss, signInAll } from './measure'
import type { benchPatients } from './seed'
import { hospitalIdByEmail, insertPatients } from './seed'
import { restarted, startServer } from './server'
import { type WorkerResult, benchWorker } from './worker-bench'

export interface PgliteResult {
  seedMs: number
  firstStartMs: number
  restartMs: number
  rssMb: number
  http: Record<string, Measured>
  worker: WorkerResult | null
}

export async function benchPglite(
  list: Scenario[],
  rows: ReturnType<typeof benchPatients>,
  log: (line: string) => void,
): Promise<PgliteResult> {
  const root = mkdtempSync(join(tmpdir(), 'arogya-bench-pglite-'))
  const dataDir = join(root, 'data')
  try {
    const first = await startServer({ dataDir })
    await first.stop()
    log(
      `  first start (migrations, demo seed) in ${dataDir}: ${(first.readyMs / 1000).toFixed(1)} s`,
    )

    const t0 = performance.now()
    const db = await PGlite.create({ dataDir, extensions: { pg_trgm, btree_gist, btree_gin } })
    let total: number
    try {
      total = await insertPatients(db, await hospitalIdByEmail(db, BENCH_HOSPITAL_EMAIL), rows)
    } finally {
      await db.close()
    }
    const seedMs = performance.now() - t0
    log(
      `  ${rows.length.toLocaleString('en-IN')} patients inserted in ${(seedMs / 1000).toFixed(1)} s (hospital has ${total.toLocaleString('en-IN')})`,
    )

    const restart = await restarted({ dataDir })
    const server = restart.server
    const http: Record<string, Measured> = {}
    let rss = 0
    try {
      log(`  restart: /readyz 200 after ${restart.all.map((ms) => ms.toFixed(0)).join(', ')} ms`)
      const cookie = await signInAll([server])
      for (const s of list) {
        const m = await measure({ servers: [server], cookie, path: s.path })
        m.matches = await matches(server, cookie, s.path)
        http[s.key] = m
        rss = Math.max(rss, serversRss([server]))
        log(
          `  HTTP ${s.label}: ${m.rps.toFixed(0)} req/s, p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms`,
        )
      }
    } finally {
      await server.stop()
    }
    const worker = config.parts('worker') ? await benchWorker(dataDir, list, log) : null
    return {
      seedMs,
      firstStartMs: first.readyMs,
      restartMs: restart.restartMs,
      rssMb: rss,
      http,
      worker,
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
    rmSync(`${dataDir}-snapshots`, { recursive: true, force: true })
  }
}
