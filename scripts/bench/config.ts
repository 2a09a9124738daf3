// The bench's settings, read once here (scripts are not the app; the app reads its
// environment in src/server/env.ts only).
import { resolve } from 'node:path'

function int(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw.replaceAll('_', ''))
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer`)
  return n
}

const parts = (process.env.BENCH_PARTS ?? '').split(',').filter(Boolean)

export const config = {
  /** Patients in the benched hospital (Sanjeevani); the others keep the demo seed's. */
  patients: int('BENCH_PATIENTS', 100_000),
  /** Seconds of load per measurement (list, searches, direct SQL, instances). */
  seconds: int('BENCH_SECONDS', 10),
  connections: int('BENCH_CONNECTIONS', 10),
  /**
   * Seconds of load before each measured figure. A freshly restarted server spent its first
   * seconds compiling hot code (TurboFan): with 1 s the first figure measured, the list, ran
   * at about 360 req/s and the same list later in the run at about 620.
   */
  warmup: int('BENCH_WARMUP', 3),
  /** Leads in the benched hospital for the leads part (issue 8). */
  leads: int('BENCH_LEADS', 100_000),
  /** Rows of the CSV the leads part imports through the API. */
  importRows: int('BENCH_IMPORT_ROWS', 100_000),
  /** Signed webhook deliveries the leads part posts (20 % of them repeats). */
  webhooks: int('BENCH_WEBHOOKS', 5_000),
  /** PostgreSQL server to create a scratch database on (dropped at the end). */
  serverUrl:
    process.env.BENCH_DATABASE_URL ||
    process.env.TEST_DATABASE_URL ||
    'postgres://postgres@127.0.0.1:5432/test',
  /**
   * Checkout whose built server is benched (default: this one). A worktree of an older
   * commit gives the "before" figures: `git worktree add /tmp/bench-before <commit>`.
   */
  target: resolve(process.env.BENCH_TARGET || '.'),
  /** Comma-separated subset of postgres,instances,pglite,compression,worker,leads (default all). */
  parts: (part: string) => parts.length === 0 || parts.includes(part),
  /** The server's log level while benched (each request log line costs CPU). */
  logLevel: process.env.BENCH_LOG_LEVEL || 'warn',
}

export const DEMO_PASSWORD = 'arogya-bench-2026'
export const BENCH_LOGIN = 'admin@sanjeevani.demo'
export const BENCH_HOSPITAL_EMAIL = 'contact@sanjeevani.demo'
/** The page the web client asks for (PATIENTS_PAGE_SIZE). */
export const PAGE = 30
