import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { hasPgBouncer, type PgBouncer, startPgBouncer } from '../support/pgbouncer'
import { createPatientViaApi, expect, login, randomMobile, test, uniqueName } from './fixtures'
import { expectPushedItem, PUSHED_MS } from './support/live-feed'

// Issue 29: Live Monitoring with two app instances behind PgBouncer (transaction mode) on one
// PostgreSQL. The admin's screen is served by instance A; the receptionist signs in and adds a
// patient on instance B; the events cross through NOTIFY (each instance LISTENs on its
// DATABASE_DIRECT_URL) and show on A within 2 s. Needs PostgreSQL (TEST_DATABASE_URL) and
// PgBouncer; skipped otherwise. Uses the built server (npm run build), like the e2e server.
const serverUrl = process.env.TEST_DATABASE_URL

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

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

async function answers(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`${url} did not answer`)
}

test.describe('two instances behind PgBouncer', () => {
  test.skip(!serverUrl || !hasPgBouncer, 'needs TEST_DATABASE_URL (PostgreSQL) and PgBouncer')
  test.describe.configure({ mode: 'serial' })

  const name = `arogya_e2e_live_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
  const secret = randomBytes(32).toString('hex')
  const secretsKey = randomBytes(32).toString('base64')
  const servers: ChildProcess[] = []
  const dirs: string[] = []
  const origins: string[] = []
  let bouncer: PgBouncer | undefined

  async function instance(): Promise<string> {
    const port = await freePort()
    const direct = new URL(serverUrl ?? '')
    direct.pathname = `/${name}`
    const dataDir = mkdtempSync(join(tmpdir(), 'arogya-e2e-live-'))
    dirs.push(dataDir)
    const child = spawn(process.execPath, ['--enable-source-maps', 'dist/server/index.mjs'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: bouncer?.url(name),
        DATABASE_DIRECT_URL: direct.toString(),
        DATA_DIR: dataDir,
        SEED_DEMO: 'true',
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        BETTER_AUTH_SECRET: secret,
        SECRETS_KEY: secretsKey,
      },
    })
    servers.push(child)
    const origin = `http://127.0.0.1:${port}`
    await answers(`${origin}/api/login`, Date.now() + 120_000)
    return origin
  }

  test.beforeAll(async () => {
    test.setTimeout(300_000)
    await admin(`create database ${name}`)
    bouncer = await startPgBouncer(new URL(serverUrl ?? ''))
    // One after the other: the first migrates and seeds, the second finds it done.
    origins.push(await instance())
    origins.push(await instance())
  })

  test.afterAll(async () => {
    for (const child of servers) {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))])
      if (child.exitCode === null) child.kill('SIGKILL')
    }
    await bouncer?.stop()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
    await admin(`drop database if exists ${name} with (force)`)
  })

  test('a sign-in and a new patient on instance B reach the screen on instance A within 2 s', async ({
    browser,
  }) => {
    test.setTimeout(180_000)
    const [a, b] = origins
    const watcher = await browser.newContext({ baseURL: a })
    const desk = await browser.newContext({ baseURL: b })
    try {
      const page = await watcher.newPage()
      await login(page, 'admin@sanjeevani.demo')
      await page.goto('/live-monitoring')
      await page.getByRole('tab', { name: 'Live Activity' }).click()
      const feed = page.getByRole('region', { name: 'Latest activity' })
      await expect(feed).toBeVisible()

      const other = await desk.newPage()
      const since = Date.now()
      await login(other, 'receptionist@sanjeevani.demo')
      await expectPushedItem(feed, 'Pooja Shetty signed in', since)
      const patient = uniqueName('Tanvi', 'Deshpande')
      await createPatientViaApi(other, { name: patient, phone: randomMobile() })
      await expect(feed.getByRole('listitem').filter({ hasText: patient })).toBeVisible({
        timeout: PUSHED_MS,
      })
    } finally {
      await watcher.close()
      await desk.close()
    }
  })
})
