import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../support/test-app'

// Issue 16: /healthz, /readyz, and a SIGTERM that loses no acknowledged write.

describe('health endpoints', () => {
  it('/healthz is alive, /readyz is ready until shutdown begins', async () => {
    const t = await createTestApp()
    try {
      const health = await t.app.inject({ method: 'GET', url: '/healthz' })
      expect(health.statusCode).toBe(200)
      expect(health.json()).toEqual({ status: 'ok', version: expect.any(String) })
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' })
      expect(ready.statusCode).toBe(200)
      expect(ready.json()).toMatchObject({ status: 'ready', database: 'ok' })
      expect(ready.headers['cache-control']).toBe('no-store')
      const { buildApp } = await import('../../src/server/app')
      const other = await buildApp({
        database: t.database,
        authSecret: 'arogya-integration-tests-secret-0123456789abcdef',
        logLevel: 'silent',
      })
      other.drain()
      const draining = await other.app.inject({ method: 'GET', url: '/readyz' })
      expect(draining.statusCode).toBe(503)
      expect(draining.json()).toMatchObject({ status: 'draining' })
      await other.app.close()
    } finally {
      await t.close()
    }
  })
})

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface Server {
  child: ChildProcess
  base: string
  exited: Promise<number | null>
}

async function start(env: Record<string, string>): Promise<Server> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/index.ts'], {
    // Vitest puts Vite's BASE_URL ('/') into process.env; the server must not read it.
    env: { ...process.env, BASE_URL: '', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  )
  const base = `http://127.0.0.1:${port}`
  // Up to 2 minutes: a loaded CI machine transpiles the server slowly (tsx, cold cache).
  for (let i = 0; i < 480; i++) {
    const ok = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return { child, base, exited }
    await sleep(250)
  }
  child.kill('SIGKILL')
  throw new Error('server did not become ready')
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: 'receptionist@sanjeevani.demo', password: 'arogya-demo-2026' }),
  })
  if (!res.ok) throw new Error(`sign-in ${res.status}`)
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  return cookie
}

const dirs: string[] = []
const databases: string[] = []
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  const url = process.env.TEST_DATABASE_URL
  if (!url) return
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`)
  await admin.end()
})

async function environment(): Promise<Record<string, string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'arogya-sigterm-'))
  dirs.push(dataDir, `${dataDir}-snapshots`)
  const base = {
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
  }
  const url = process.env.TEST_DATABASE_URL
  if (!url) return base
  const name = `arogya_sigterm_${Date.now().toString(36)}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  databases.push(name)
  const target = new URL(url)
  target.pathname = `/${name}`
  return { ...base, DATABASE_URL: target.toString() }
}

describe('SIGTERM under load', () => {
  it('finishes in-flight writes, exits 0, and every acknowledged write is there after a restart', async () => {
    const env = await environment()
    const first = await start(env)
    const cookie = await signIn(first.base)
    const acknowledged: string[] = []
    let stop = false
    let n = 0
    const writer = async () => {
      while (!stop) {
        const i = n++
        try {
          const res = await fetch(`${first.base}/api/patients/manual`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: first.base, cookie },
            body: JSON.stringify({ name: `Shutdown Probe ${i}`, phone: '9876543210' }),
          })
          if (res.status === 201) acknowledged.push((await res.json()).id as string)
        } catch {
          await sleep(20)
        }
      }
    }
    const writers = Array.from({ length: 8 }, writer)
    while (acknowledged.length < 40) await sleep(20)
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    stop = true
    await Promise.all(writers)

    const second = await start(env)
    try {
      const again = await signIn(second.base)
      const missing: string[] = []
      for (const id of acknowledged) {
        const res = await fetch(`${second.base}/api/patients/${id}`, { headers: { cookie: again } })
        if (res.status !== 200) missing.push(id)
      }
      expect(acknowledged.length).toBeGreaterThanOrEqual(40)
      expect(missing).toEqual([])
    } finally {
      second.child.kill('SIGTERM')
      await second.exited
    }
  }, 300_000)
})
