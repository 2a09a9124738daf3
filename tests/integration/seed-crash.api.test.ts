import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { embeddedExtensions } from '../../src/server/db/client'
import {
  demoHospitals,
  demoLogins,
  LEADS_PER_DEMO_HOSPITAL,
  PATIENTS_PER_DEMO_HOSPITAL,
} from '../../src/server/db/seed/demo'
import { DEMO_MISSED_CALL_LEADS } from '../../src/server/db/seed/calls'

// Issue 16, "Bad input and faults": kill -9 during the first start's demo seed leaves either
// no demo data or all of it, and the next start completes it. The real server is started
// (PGlite in a fresh DATA_DIR, or a fresh PostgreSQL database with TEST_DATABASE_URL) and
// killed at several moments after it says it is adding the demo data.

const DEMO_PASSWORD = 'arogya-demo-2026'
/** After the server logs 'Adding the demo data' (lock held, nothing written yet). */
const KILL_DELAYS_MS = [0, 300, 2500]

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(),
      )
    })
  })
}

interface Started {
  /** 'killed': killed by the test; 'ready': answering /readyz. */
  outcome: 'killed' | 'ready'
  /** It logged 'Adding the demo data' (so the demo was not complete when it started). */
  seeding: boolean
  child: ChildProcess
  base: string
  exited: Promise<number | null>
}

/** Starts the server; with `killAfterMs`, kills it (SIGKILL) that long after it starts seeding. */
async function start(env: Record<string, string>, killAfterMs?: number): Promise<Started> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/index.ts'], {
    // Vitest puts Vite's BASE_URL ('/') into process.env; the server must not read it.
    env: { ...process.env, BASE_URL: '', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  )
  let seeding = false
  let killed = false
  let tail = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000)
    if (seeding || !tail.includes('"msg":"Adding the demo data"')) return
    seeding = true
    if (killAfterMs === undefined) return
    setTimeout(() => {
      killed = true
      child.kill('SIGKILL')
    }, killAfterMs)
  })
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)))
  const base = `http://127.0.0.1:${port}`
  const started = (outcome: Started['outcome']) => ({ outcome, seeding, child, base, exited })
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    if (killed) {
      await exited
      return started('killed')
    }
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${stderr}`)
    if (
      await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    ) {
      // Seeding with a kill due: the kill lands after the commit, which is a moment too.
      if (seeding && killAfterMs !== undefined) {
        await exited
        return started('killed')
      }
      return started('ready')
    }
    await sleep(50)
  }
  child.kill('SIGKILL')
  throw new Error(`server did not become ready: ${stderr}`)
}

interface Counts {
  users: number
  accounts: number
  hospitals: number
  patients: number
  leads: number
  leadSettings: number
  /** Whether there are any (how many depends on the day). */
  communications: boolean
}
const NONE: Counts = {
  users: 0,
  accounts: 0,
  hospitals: 0,
  patients: 0,
  leads: 0,
  leadSettings: 0,
  communications: false,
}
const ALL: Counts = {
  users: demoLogins().length,
  accounts: demoLogins().length,
  hospitals: demoHospitals.length,
  patients: PATIENTS_PER_DEMO_HOSPITAL * demoHospitals.length,
  leads: (LEADS_PER_DEMO_HOSPITAL + DEMO_MISSED_CALL_LEADS) * demoHospitals.length,
  leadSettings: demoHospitals.length,
  communications: true,
}
const COUNTS_SQL = `select (select count(*) from users where email like '%.demo')::int as users,
  (select count(*) from accounts)::int as accounts,
  (select count(*) from hospitals where email like '%.demo')::int as hospitals,
  (select count(*) from patients)::int as patients,
  (select count(*) from leads)::int as leads,
  (select count(*) from lead_settings)::int as "leadSettings",
  exists (select 1 from communications) as communications`

const dirs: string[] = []
const databases: string[] = []
const serverUrl = process.env.TEST_DATABASE_URL

afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  if (!serverUrl) return
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`)
  await admin.end()
})

/** A fresh place for the server's data, and how to count the demo rows in it. */
async function environment(): Promise<{
  env: Record<string, string>
  counts: () => Promise<Counts>
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'arogya-seed-kill-'))
  dirs.push(dataDir, `${dataDir}-snapshots`)
  const env = {
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    DEMO_PASSWORD,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
  }
  if (!serverUrl) {
    return {
      env,
      counts: async () => {
        const db = await PGlite.create({ dataDir, extensions: embeddedExtensions })
        try {
          return (await db.query<Counts>(COUNTS_SQL)).rows[0]!
        } finally {
          await db.close()
        }
      },
    }
  }
  const name = `arogya_seedkill_${Date.now().toString(36)}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  databases.push(name)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    env: { ...env, DATABASE_URL: url.toString() },
    counts: async () => {
      const client = new pg.Client({ connectionString: url.toString() })
      await client.connect()
      try {
        // The killed server's backend rolls back once it sees the connection gone.
        for (let i = 0; i < 100; i++) {
          const others = await client.query<{ n: number }>(
            'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
          )
          if (others.rows[0]?.n === 0) break
          await sleep(50)
        }
        return (await client.query<Counts>(COUNTS_SQL)).rows[0]!
      } finally {
        await client.end()
      }
    },
  }
}

async function signIn(base: string, email: string): Promise<number> {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  })
  return res.status
}

describe(`kill -9 during the first start's demo seed (${serverUrl ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('leaves no demo data or all of it, and the next start completes it', async () => {
    const { env, counts } = await environment()
    const seen: string[] = []
    let server: Started | undefined
    for (const delay of KILL_DELAYS_MS) {
      const run = await start(env, delay)
      if (run.outcome === 'ready') {
        server = run // nothing left to seed: an earlier kill came after the commit
        break
      }
      const after = await counts()
      seen.push(`${delay} ms: ${after.users ? 'all' : 'none'}`)
      expect([NONE, ALL], `killed ${delay} ms into the seed`).toContainEqual(after)
    }
    server ??= await start(env)
    try {
      const statuses = await Promise.all(demoLogins().map((email) => signIn(server.base, email)))
      expect(statuses).toEqual(demoLogins().map(() => 200))
    } finally {
      server.child.kill('SIGTERM')
      await server.exited
    }
    expect(await counts()).toEqual(ALL)
    console.info(`demo after kill -9: ${seen.join(', ')}`)
  }, 300_000)
})
