import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import { PRIVATE_UMASK, prepareDataDir } from '../../src/server/data-dir'
import { openDatabase } from '../../src/server/db/client'
import { withPlatform, withTenant } from '../../src/server/db/tenant'
import { loadEnv } from '../../src/server/env'
import { loadAuthSecret } from '../../src/server/secret'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  hospitalIdOf,
  queryRows,
  TEST_AUTH_SECRET,
  type TestApp,
} from '../support/test-app'

// Issue 6, items 2 (data directory), 5 (demo seed), 9 (append-only logs) and the
// production database roles.
let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t?.close()
})

/** The messages of an error and its causes, joined. */
async function failure(run: Promise<unknown>): Promise<string> {
  try {
    await run
  } catch (error) {
    const messages: string[] = []
    for (let e: unknown = error; e instanceof Error; e = e.cause) messages.push(e.message)
    return messages.join(' <- ')
  }
  return 'no error'
}

/** Every file and folder under dir, with its permission bits. */
function modes(dir: string): { path: string; mode: number }[] {
  const out: { path: string; mode: number }[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name)
    out.push({ path, mode: statSync(path).mode & 0o777 })
  }
  return out
}

describe('the data directory', () => {
  it('is created 0700, and everything the server writes in it is for its own user only', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'arogya-data-'))
    const dir = join(parent, 'data')
    const previous = process.umask(PRIVATE_UMASK)
    try {
      prepareDataDir(dir)
      expect(statSync(dir).mode & 0o777).toBe(0o700)
      loadAuthSecret(undefined, dir)
      const database = await openDatabase({ dataDir: dir })
      await database.db.execute(sql`select 1`)
      await database.close()
      // PGlite (Emscripten's NODEFS) chmods its files 0666 whatever the umask; every folder
      // on the way to them is 0700, so no other user can reach them, and the next start
      // tightens them as well.
      const all = modes(dir)
      expect(all.length).toBeGreaterThan(20)
      const dirs = all.filter((f) => statSync(f.path).isDirectory())
      expect(dirs.filter((d) => d.mode !== 0o700)).toEqual([])
      expect(statSync(join(dir, '.auth-secret')).mode & 0o777).toBe(0o600)
      prepareDataDir(dir)
      expect(modes(dir).filter((f) => (f.mode & 0o077) !== 0)).toEqual([])
    } finally {
      process.umask(previous)
      rmSync(parent, { recursive: true, force: true })
    }
    // A new embedded database (its initdb) took past 30 s once on a loaded machine.
  }, 90_000)

  it('refuses to start, with the fix in the message, when the directory or the secret is open to others', () => {
    const parent = mkdtempSync(join(tmpdir(), 'arogya-data-'))
    try {
      const dir = join(parent, 'data')
      prepareDataDir(dir)
      chmodSync(dir, 0o755)
      expect(() => prepareDataDir(dir)).toThrow(
        new RegExp(`DATA_DIR ${dir} is open to other users \\(mode 0755\\).*chmod -R go-rwx`),
      )
      chmodSync(dir, 0o700)
      writeFileSync(join(dir, '.auth-secret'), 'x'.repeat(43), { mode: 0o644 })
      chmodSync(join(dir, '.auth-secret'), 0o644)
      expect(() => loadAuthSecret(undefined, dir)).toThrow(/secret file .* is open to other users/)
      expect(() => prepareDataDir(dir)).toThrow(/secret file .* is open to other users/)
    } finally {
      rmSync(parent, { recursive: true, force: true })
    }
  })
})

describe('demo data in production', () => {
  it('is off by default with NODE_ENV=production, and flagged when asked for', () => {
    const base = { NODE_ENV: 'production', BASE_URL: 'https://crm.example.in' }
    expect(loadEnv(base)).toMatchObject({ SEED_DEMO: false, SEED_DEMO_IN_PRODUCTION: false })
    expect(loadEnv({ ...base, SEED_DEMO: 'true' })).toMatchObject({
      SEED_DEMO: true,
      SEED_DEMO_IN_PRODUCTION: true,
    })
    expect(loadEnv({})).toMatchObject({ SEED_DEMO: true, SEED_DEMO_IN_PRODUCTION: false })
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(/BASE_URL: required/)
  })
})

describe('append-only audit trail', () => {
  it('lets a request add and read audit rows, never change or remove them', async () => {
    const hospitalId = await hospitalIdOf(t.db, 'sanjeevani')
    const ctx = { hospitalId, userId: null }
    await withTenant(t.db, ctx, (tx) =>
      tx.execute(
        sql`insert into audit_events (hospital_id, action, entity_type, summary) values (${hospitalId}, 'test.appended', 'test', 'append-only check')`,
      ),
    )
    for (const statement of [
      sql`update audit_events set summary = 'rewritten'`,
      sql`delete from audit_events`,
      sql`truncate audit_events`,
    ]) {
      expect(await failure(withTenant(t.db, ctx, (tx) => tx.execute(statement)))).toMatch(
        /permission denied for table audit_events/,
      )
    }
    const [row] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from audit_events where action = 'test.appended'`,
    )
    expect(row?.n).toBe(1)
  })

  it('records security events: sign-in, failure, sign-out', async () => {
    const email = demoEmail('viewer', 'smiledental')
    await login(t.app, email)
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { host: 'localhost', origin: 'http://localhost' },
      payload: { email, password: 'wrong-password' },
    })
    const rows = await withPlatform(t.db, (tx) =>
      tx.execute(sql`select event from security_events where email = ${email}`),
    )
    const names = (rows as unknown as { rows: { event: string }[] }).rows.map((r) => r.event)
    expect(names).toEqual(expect.arrayContaining(['sign_in.success', 'sign_in.failure']))
  })
})

const serverUrl = process.env.TEST_DATABASE_URL

describe.runIf(serverUrl)(
  'PostgreSQL: the server as a login role that is neither superuser nor owner',
  () => {
    const role = `arogya_login_${Date.now().toString(36)}`
    let loginUrl = ''
    let ownerUrl = ''
    let admin: pg.Client

    beforeAll(async () => {
      const [dbRow] = await queryRows<{ db: string }>(t.db, sql`select current_database() as db`)
      const owner = new URL(serverUrl ?? '')
      owner.pathname = `/${dbRow?.db}`
      ownerUrl = owner.toString()
      admin = new pg.Client({ connectionString: ownerUrl })
      await admin.connect()
      await admin.query(`create role ${role} login nosuperuser nobypassrls nocreatedb nocreaterole`)
      await admin.query(`grant app_platform, app_user to ${role}`)
      const url = new URL(ownerUrl)
      url.username = role
      loginUrl = url.toString()
    })
    afterAll(async () => {
      await admin?.query(`drop owned by ${role}`).catch(() => undefined)
      await admin?.query(`drop role if exists ${role}`).catch(() => undefined)
      await admin?.end()
    })

    it('serves sign-in and tenant data, with migrations run over DATABASE_MIGRATION_URL', async () => {
      const database = await openDatabase({ databaseUrl: loginUrl, migrationUrl: ownerUrl })
      try {
        const { app } = await buildApp({
          database,
          authSecret: TEST_AUTH_SECRET,
          logLevel: 'silent',
          authRateLimit: false,
        })
        await app.ready()
        const cookie = await login(app, demoEmail('doctor'))
        const list = await app.inject({
          method: 'GET',
          url: '/api/patients?limit=5',
          headers: { cookie },
        })
        expect(list.statusCode).toBe(200)
        expect(list.json<unknown[]>()).toHaveLength(5)
        await app.close()
      } finally {
        await database.close()
      }
    })

    it('cannot leave app_user for anything stronger, nor rewrite the logs', async () => {
      const client = new pg.Client({ connectionString: loginUrl })
      await client.connect()
      try {
        await client.query('begin')
        await client.query(`select set_config('role', 'app_user', true)`)
        await client.query('reset role')
        const who = await client.query<{ u: string; su: boolean }>(
          `select current_user as u, (select rolsuper from pg_roles where rolname = current_user) as su`,
        )
        expect(who.rows[0]).toEqual({ u: role, su: false })
        const rows = await client.query<{ n: number }>('select count(*)::int as n from patients')
        expect(rows.rows[0]?.n).toBe(0)
        await client.query('rollback')
        for (const statement of [
          'set role postgres',
          "update security_events set event = 'x'",
          'delete from security_events',
          'delete from audit_events',
          'alter table patients disable row level security',
          'create table stolen (x text)',
          "select set_config('role', 'postgres', false)",
        ]) {
          await expect(client.query(statement), statement).rejects.toThrow(
            /permission denied|must be|not allowed/,
          )
        }
      } finally {
        await client.end()
      }
    })
  },
)
