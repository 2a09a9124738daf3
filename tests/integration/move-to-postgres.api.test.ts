import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import { openDatabase } from '../../src/server/db/client'
import { moveToPostgres } from '../../src/server/db/move-to-postgres'
import { demoHospitals, PATIENTS_PER_DEMO_HOSPITAL, seedDemo } from '../../src/server/db/seed/demo'
import { login } from '../support/login'
import { demoEmail, TEST_AUTH_SECRET, TEST_PASSWORD } from '../support/test-app'

/** Every demo patient, converted leads' included. */
const DEMO_PATIENTS = PATIENTS_PER_DEMO_HOSPITAL * demoHospitals.length

// Issue 16: a clinic outgrows the embedded database without losing a row.
const serverUrl = process.env.TEST_DATABASE_URL

describe.runIf(serverUrl)('npm run db:to-postgres', () => {
  const dir = mkdtempSync(join(tmpdir(), 'arogya-move-'))
  const names = ['a', 'b'].map((s) => `arogya_move_${s}_${Date.now().toString(36)}`)
  const urlOf = (name: string) => {
    const url = new URL(serverUrl ?? '')
    url.pathname = `/${name}`
    return url.toString()
  }
  async function admin(text: string) {
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    try {
      await client.query(text)
    } finally {
      await client.end()
    }
  }

  beforeAll(async () => {
    const database = await openDatabase({ dataDir: dir })
    const { app, auth } = await buildApp({
      database,
      authSecret: TEST_AUTH_SECRET,
      logLevel: 'silent',
    })
    await seedDemo(database.db, auth, TEST_PASSWORD)
    await login(app, demoEmail('doctor')) // a session and security events to copy too
    await app.close()
    await database.close()
    for (const name of names) await admin(`create database ${name}`)
  }, 120_000)
  afterAll(async () => {
    for (const name of names) await admin(`drop database if exists ${name} with (force)`)
    rmSync(dir, { recursive: true, force: true })
  })

  it('copies every table with matching counts and checksums, and the app serves from it', async () => {
    const tables = await moveToPostgres({ dataDir: dir, targetUrl: urlOf(names[0] ?? '') })
    const byName = new Map(tables.map((t) => [t.table, t]))
    for (const table of [
      'hospitals',
      'users',
      'accounts',
      'patients',
      'sessions',
      'security_events',
    ]) {
      expect(byName.get(table)?.rows, table).toBeGreaterThan(0)
    }
    expect(byName.get('patients')?.rows).toBe(DEMO_PATIENTS)
    const database = await openDatabase({ databaseUrl: urlOf(names[0] ?? '') })
    try {
      const { app } = await buildApp({
        database,
        authSecret: TEST_AUTH_SECRET,
        logLevel: 'silent',
        authRateLimit: false,
      })
      const cookie = await login(app, demoEmail('doctor'))
      const list = await app.inject({
        method: 'GET',
        url: '/api/patients?limit=100',
        headers: { cookie },
      })
      expect(list.json<unknown[]>()).toHaveLength(PATIENTS_PER_DEMO_HOSPITAL)
      await app.close()
    } finally {
      await database.close()
    }
  }, 120_000)

  it('refuses a target that has rows; a copy that fails part-way leaves no rows and can be run again', async () => {
    await expect(
      moveToPostgres({ dataDir: dir, targetUrl: urlOf(names[0] ?? '') }),
    ).rejects.toThrow(/not empty/)
    const second = urlOf(names[1] ?? '')
    await expect(
      moveToPostgres({
        dataDir: dir,
        targetUrl: second,
        afterTable: (table) => {
          if (table === 'users') throw new Error('killed part-way')
        },
      }),
    ).rejects.toThrow(/killed part-way/)
    const check = new pg.Client({ connectionString: second })
    await check.connect()
    const counts = await check.query<{ hospitals: number; users: number }>(
      `select (select count(*)::int from hospitals) as hospitals, (select count(*)::int from users) as users`,
    )
    await check.end()
    expect(counts.rows[0]).toEqual({ hospitals: 0, users: 0 })
    const again = await moveToPostgres({ dataDir: dir, targetUrl: second })
    expect(again.find((t) => t.table === 'patients')?.rows).toBe(DEMO_PATIENTS)
  }, 120_000)
})
