import { rm } from 'node:fs/promises'
import { and, eq, ne, type SQL, sql } from 'drizzle-orm'
import {
  DELETE_NAME_MESSAGE,
  type DeleteAllResult,
  WRONG_PASSWORD_MESSAGE,
} from '../../../shared/schemas/data-export'
import type { Auth } from '../../auth/auth'
import type { AppDb, Tx } from '../../db/client'
import { hospitals } from '../../db/schema/hospitals'
import { jobs } from '../../db/schema/jobs'
import { withPlatform, withTenant } from '../../db/tenant'
import { AppError } from '../../http/app-error'
import { getStorage } from '../../storage/storage'
import { recordPlatformAudit } from '../audit/platform-audit.service'
import { exportDir } from './export-files'
import { DATA_EXPORT_JOB } from './export-job'
import { NOT_EXPORTED } from './export-tables'

/**
 * Tenant tables Delete All Data keeps although the request role may delete from them:
 * invoice numbers are never issued twice in a financial year (GST), so their counters stay.
 * Tables app_user may not delete from are kept by the database itself: the append-only audit
 * trail, patient-number counters (numbers are never reused), and the hospital's security and
 * lead-handling policy (hospital_settings, lead_settings), and the hospital's lead-generation
 * orders with the platform (lead_generation_requests, issue 28).
 */
const KEPT = new Set(['invoice_counters'])

/**
 * Rows of a table that stay: opt-outs are the suppression list that keeps a re-imported
 * contact from being messaged against their wish (docs/decisions/027).
 */
const KEEP_ROWS: Record<string, SQL> = {
  consent_records: sql`action = 'opt_out'`,
}

async function rows<T>(tx: Tx, query: SQL): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows
}

interface TenantTable {
  name: string
  erasable: boolean
}

/** The hospital's tables, in an order that deletes every referencing row before its target. */
async function tenantTables(tx: Tx): Promise<{ order: string[]; kept: string[] }> {
  const tables = await rows<TenantTable>(
    tx,
    sql`select c.relname as name, has_table_privilege('app_user', c.oid, 'DELETE') as erasable
        from pg_class c join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
        where c.relkind in ('r', 'p') and c.relforcerowsecurity
          and exists (select 1 from pg_attribute h where h.attrelid = c.oid
                      and h.attname = 'hospital_id' and not h.attisdropped)
        order by c.relname`,
  )
  const erase = tables.filter((t) => t.erasable && !KEPT.has(t.name)).map((t) => t.name)
  const kept = tables
    .filter((t) => !erase.includes(t.name) && !NOT_EXPORTED.has(t.name))
    .map((t) => t.name)
  const edges = await rows<{ child: string; parent: string }>(
    tx,
    sql`select conrelid::regclass::text as child, confrelid::regclass::text as parent
        from pg_constraint where contype = 'f' and conrelid <> confrelid`,
  )
  // Kahn's algorithm on "child before parent" among the tables to erase.
  const waiting = new Map(erase.map((t) => [t, 0]))
  for (const e of edges) {
    if (waiting.has(e.child) && waiting.has(e.parent)) {
      waiting.set(e.parent, (waiting.get(e.parent) ?? 0) + 1)
    }
  }
  const order: string[] = []
  const ready = erase.filter((t) => waiting.get(t) === 0)
  while (ready.length) {
    const next = ready.shift() as string
    order.push(next)
    for (const e of edges) {
      if (e.child !== next || !waiting.has(e.parent)) continue
      const left = (waiting.get(e.parent) ?? 1) - 1
      waiting.set(e.parent, left)
      if (left === 0) ready.push(e.parent)
    }
  }
  // A cycle (none today) would leave tables out: delete them last, cascades permitting.
  for (const t of erase) if (!order.includes(t)) order.push(t)
  return { order, kept }
}

const normalise = (name: string) => name.trim().replace(/\s+/g, ' ')

/**
 * Delete All Data (Settings → Data; admins, hospital:manage). The admin types the hospital's
 * name exactly and re-enters their password (checked by better-auth against the stored hash).
 * Then, in one transaction under the hospital's row-level security, every row of the
 * hospital's tenant tables is deleted (users and the hospital row stay; KEPT above), and the
 * erasure (who, when, counts per table) goes to the platform audit log and, as the first row
 * of what is left, the hospital's own audit trail.
 */
export async function deleteAllData(opts: {
  db: AppDb
  auth: Auth
  headers: Headers
  hospitalId: string
  userId: string
  confirmName: string
  password: string
}): Promise<DeleteAllResult> {
  const [hospital] = await withPlatform(opts.db, (tx) =>
    tx.select({ name: hospitals.name }).from(hospitals).where(eq(hospitals.id, opts.hospitalId)),
  )
  if (!hospital) throw new AppError('NOT_FOUND', 'Hospital not found')
  if (normalise(opts.confirmName) !== normalise(hospital.name)) {
    throw new AppError('VALIDATION', `Invalid input: confirmName: ${DELETE_NAME_MESSAGE}`, [
      { path: 'confirmName', message: DELETE_NAME_MESSAGE },
    ])
  }
  const verified = await opts.auth.api
    .verifyPassword({ body: { password: opts.password }, headers: opts.headers })
    .then(
      () => true,
      () => false,
    )
  if (!verified) {
    throw new AppError('FORBIDDEN', WRONG_PASSWORD_MESSAGE, [
      { path: 'password', message: WRONG_PASSWORD_MESSAGE },
    ])
  }
  const ctx = { hospitalId: opts.hospitalId, userId: opts.userId }
  let files: string[] = []
  const result = await withTenant(opts.db, ctx, async (tx) => {
    const { order, kept } = await tenantTables(tx)
    files = await storedFiles(tx, order)
    const counts: Record<string, number> = {}
    for (const table of order) {
      const keep = KEEP_ROWS[table]
      const [row] = await rows<{ n: number }>(
        tx,
        sql`with gone as (delete from ${sql.identifier(table)} ${keep ? sql`where not (${keep})` : sql``} returning 1)
            select count(*)::int as n from gone`,
      )
      counts[table] = Number(row?.n ?? 0)
    }
    const total = Object.values(counts).reduce((a, b) => a + b, 0)
    const listed = Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ')
    // Back to the connecting role for the platform audit row (platform_audit_events is not
    // app_user's); recordPlatformAudit then returns to app_user for the hospital's own row.
    await tx.execute(sql`select set_config('role', 'none', true)`)
    await recordPlatformAudit(tx, {
      actorUserId: opts.userId,
      hospitalId: opts.hospitalId,
      action: 'hospital.data_erased',
      entityType: 'hospital',
      entityId: opts.hospitalId,
      summary: `Deleted all data of ${hospital.name}: ${total} rows (${listed || 'none'}) and ${files.length} stored files`,
    })
    return { counts, total, kept }
  })
  // The rows are gone (committed): now the files they named (backups, uploaded backups, ticket
  // attachments). A file that cannot be deleted now is only unreachable: no row names it.
  const storage = getStorage()
  for (const key of files) await storage.delete(key).catch(() => undefined)
  await deleteExports(opts.db, opts.hospitalId)
  return result
}

/**
 * The hospital's exports (issue 39): the export jobs not running (their download links) and
 * every file in its export folder, so that no archive of the deleted records stays
 * downloadable for its 48 hours.
 */
async function deleteExports(db: AppDb, hospitalId: string): Promise<void> {
  await withPlatform(db, (tx) =>
    tx
      .delete(jobs)
      .where(
        and(
          eq(jobs.hospitalId, hospitalId),
          eq(jobs.name, DATA_EXPORT_JOB),
          ne(jobs.status, 'running'),
        ),
      ),
  )
  await rm(exportDir(hospitalId), { recursive: true, force: true }).catch(() => undefined)
}

/**
 * The stored files (storage module keys) named by the rows about to be erased: every erased
 * table's `storage_key` column (and calls' `recording_key`, issue 41), so a table added later
 * with files is covered too.
 */
async function storedFiles(tx: Tx, erased: string[]): Promise<string[]> {
  const withKeys = await rows<{ name: string; keyColumn: string }>(
    tx,
    sql`select c.relname as name, a.attname as "keyColumn" from pg_attribute a
          join pg_class c on c.oid = a.attrelid
          join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
        where a.attname in ('storage_key', 'recording_key') and not a.attisdropped
          and c.relkind in ('r', 'p')`,
  )
  const keys: string[] = []
  for (const { name, keyColumn } of withKeys) {
    if (!erased.includes(name)) continue
    const col = sql.identifier(keyColumn)
    const found = await rows<{ key: string }>(
      tx,
      sql`select ${col} as key from ${sql.identifier(name)} where ${col} is not null`,
    )
    keys.push(...found.map((r) => r.key))
  }
  return keys
}
