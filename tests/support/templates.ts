import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'

/**
 * Template databases for the test run (vitest globalSetup, tests/support/global-setup.ts).
 * Migrating a fresh PGlite costs seconds and seeding the demo hospitals seconds more, for each
 * of ~80 integration files, twice per CI run. The run builds both states once: a PGlite data
 * directory dumped to a gzip tarball (restored with loadDataDir), and on PostgreSQL a template
 * database (CREATE DATABASE ... TEMPLATE). Each file still gets its own fresh database.
 *
 * What the run built is named in env AROGYA_TEST_TEMPLATES (JSON, read by test workers); with
 * it unset (a script, or a file run outside vitest) a test database is migrated and seeded the
 * long way, exactly as before.
 */

export type TemplateKind = 'migrated' | 'seeded'

export interface TestTemplates {
  /** PGlite: gzip tarballs of the data directory by kind. */
  pglite?: Partial<Record<TemplateKind, string>>
  /** PostgreSQL: template database names by kind (on TEST_DATABASE_URL's server). */
  postgres?: Partial<Record<TemplateKind, string>>
}

export const TEMPLATES_ENV = 'AROGYA_TEST_TEMPLATES'

export function readTemplates(): TestTemplates {
  const raw = process.env[TEMPLATES_ENV]
  if (!raw || raw === 'off') return {}
  try {
    return JSON.parse(raw) as TestTemplates
  } catch {
    return {}
  }
}

const tarballs = new Map<string, Uint8Array>()

/** A PGlite template's bytes (read once per worker). */
export function pgliteTemplate(kind: TemplateKind): Uint8Array | undefined {
  const path = readTemplates().pglite?.[kind]
  if (!path) return undefined
  let bytes = tarballs.get(path)
  if (!bytes) {
    bytes = new Uint8Array(readFileSync(path))
    tarballs.set(path, bytes)
  }
  return bytes
}

export function postgresTemplate(kind: TemplateKind): string | undefined {
  return readTemplates().postgres?.[kind]
}

export function templateDir(): string {
  return mkdtempSync(join(tmpdir(), 'arogya-test-templates-'))
}

export function writeTarball(dir: string, kind: TemplateKind, bytes: Uint8Array): string {
  const path = join(dir, `${kind}.tar.gz`)
  writeFileSync(path, bytes)
  return path
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}

export const templateName = (kind: TemplateKind) =>
  `arogya_tmpl_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}_${kind}`

export async function adminQuery(serverUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}
