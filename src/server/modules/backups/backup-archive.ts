import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import type { BackupDataType } from '../../../shared/schemas/backup'
import type { Tx } from '../../db/client'
import { MIGRATIONS_FOLDER } from '../../db/migrate'
import { type ExportTable, exportTables } from '../data-export/export-tables'

/*
 * What a backup holds (docs/decisions/039-backups.md). Patients and the service catalogue go
 * with every data type (leads, appointments and invoices point at them); restoring never
 * deletes them, it only inserts or updates them. Message history, consents and reminders are
 * not in a per-hospital backup (the whole-database backup covers them).
 */
export const BASE_TABLES = ['patients', 'services'] as const
export const DATA_TYPE_TABLES: Record<BackupDataType, readonly string[]> = {
  leads: ['leads'],
  sales: ['campaigns', 'campaign_spend', 'appointments'],
  billing: ['invoices', 'invoice_lines', 'payments'],
}
/** Parents before children: the order rows are written and restored in. */
export const RESTORE_ORDER = [
  'patients',
  'services',
  'leads',
  'campaigns',
  'campaign_spend',
  'appointments',
  'invoices',
  'invoice_lines',
  'payments',
] as const

export function tablesFor(dataTypes: readonly BackupDataType[]): string[] {
  const wanted = new Set<string>(BASE_TABLES)
  for (const type of dataTypes) for (const t of DATA_TYPE_TABLES[type]) wanted.add(t)
  return RESTORE_ORDER.filter((t) => wanted.has(t))
}

export const BACKUP_FORMAT = 1

let latestTag: string | undefined
/** The schema version of a backup: the tag of the latest migration (e.g. 0032_backups). */
export function schemaVersion(): string {
  if (latestTag) return latestTag
  const journal = JSON.parse(
    readFileSync(join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8'),
  ) as { entries: { idx: number; tag: string }[] }
  const last = journal.entries.reduce((a, b) => (b.idx > a.idx ? b : a))
  latestTag = last.tag
  return latestTag
}
export const migrationNumber = (tag: string) => Number.parseInt(tag.slice(0, 4), 10)

export interface ManifestTable {
  table: string
  file: string
  columns: string[]
  rows: number
  bytes: number
  sha256: string
}

export interface BackupManifest {
  format: number
  schemaVersion: string
  hospital: { id: string; name: string }
  dataTypes: BackupDataType[]
  createdAt: string
  recordCount: number
  tables: ManifestTable[]
}

export type RunInTenant = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>

export async function utc(tx: Tx): Promise<void> {
  await tx.execute(sql`select set_config('timezone', 'UTC', true)`)
}

/** The backed-up tables as they are in this database (columns, key). */
export async function currentTables(tx: Tx, names: readonly string[]): Promise<ExportTable[]> {
  const all = await exportTables(tx)
  return names.map((name) => {
    const t = all.find((x) => x.name === name)
    if (!t) throw new Error(`backup: table ${name} is not a hospital table`)
    return t
  })
}

/** The SQLSTATE anywhere in the error's cause chain (drizzle wraps driver errors). */
export function sqlCode(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
  }
  return undefined
}
