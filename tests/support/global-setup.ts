import { buildApp } from '../../src/server/app'
import { openDatabase } from '../../src/server/db/client'
import { seedDemo } from '../../src/server/db/seed/demo'
import { parseSecretsKeys } from '../../src/server/secrets/keys'
import { installSecretsKeys } from '../../src/server/secrets/secrets'
import { TEST_AUTH_SECRET, TEST_PASSWORD, TEST_SECRETS_KEY } from './test-app'
import {
  adminQuery,
  removeDir,
  templateDir,
  templateName,
  TEMPLATES_ENV,
  type TestTemplates,
  writeTarball,
} from './templates'

/**
 * Vitest globalSetup: builds the run's template databases once (tests/support/templates.ts):
 * migrated, and migrated + demo-seeded, on the driver this run tests (PostgreSQL when
 * TEST_DATABASE_URL is set, else PGlite). Set AROGYA_TEST_TEMPLATES=off to skip it.
 */
export default async function setup(): Promise<() => Promise<void>> {
  // Workers read 'off' as no templates (readTemplates).
  if (process.env[TEMPLATES_ENV] === 'off') return async () => {}
  installSecretsKeys(parseSecretsKeys(TEST_SECRETS_KEY))
  const serverUrl = process.env.TEST_DATABASE_URL
  const templates: TestTemplates = {}
  let cleanup: () => Promise<void>
  if (serverUrl) {
    const migrated = templateName('migrated')
    const seeded = templateName('seeded')
    cleanup = async () => {
      for (const name of [seeded, migrated]) {
        await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      }
    }
    try {
      await adminQuery(serverUrl, `CREATE DATABASE ${migrated}`)
      const first = await openDatabase({ databaseUrl: urlOf(serverUrl, migrated) })
      await first.close()
      await adminQuery(serverUrl, `CREATE DATABASE ${seeded} TEMPLATE ${migrated}`)
      const second = await openDatabase({ databaseUrl: urlOf(serverUrl, seeded) })
      try {
        await seed(second)
      } finally {
        await second.close()
      }
    } catch (error) {
      await cleanup()
      throw error
    }
    templates.postgres = { migrated, seeded }
  } else {
    const dir = templateDir()
    cleanup = async () => removeDir(dir)
    const database = await openDatabase({})
    try {
      const migrated = writeTarball(dir, 'migrated', await database.dump!())
      await seed(database)
      const seeded = writeTarball(dir, 'seeded', await database.dump!())
      templates.pglite = { migrated, seeded }
    } finally {
      await database.close()
    }
  }
  process.env[TEMPLATES_ENV] = JSON.stringify(templates)
  return cleanup
}

async function seed(database: Awaited<ReturnType<typeof openDatabase>>): Promise<void> {
  const { app, auth } = await buildApp({
    database,
    authSecret: TEST_AUTH_SECRET,
    authRateLimit: false,
    logLevel: 'silent',
  })
  try {
    await seedDemo(database.db, auth, TEST_PASSWORD)
  } finally {
    await app.close()
  }
}

function urlOf(serverUrl: string, name: string): string {
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}
