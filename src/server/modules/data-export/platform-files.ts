import { type SQL, sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'

/** A file of the export read from a platform table (not under RLS): named columns only. */
export interface PlatformFile {
  name: string
  source: string
  header: string[]
  rows: (string | null)[][]
}

const HOSPITAL_COLUMNS = [
  'id',
  'name',
  'email',
  'phone',
  'address',
  'hospital_type',
  'license_number',
  'accreditation',
  'website',
  'established_year',
  'bed_capacity',
  'staff_count',
  'gstin',
  'state_code',
  'upi_id',
  'invoice_prefix',
  'working_hours',
  'reminder_offsets',
  'time_zone',
  'currency',
  'plan',
  'subscription_status',
  'max_users',
  'grievance_name',
  'grievance_email',
  'created_at',
]

/** The team, never a password, a two-factor secret or a session. */
const USER_COLUMNS = [
  'id',
  'name',
  'first_name',
  'last_name',
  'email',
  'phone',
  'role',
  'is_active',
  'two_factor_enabled',
  'created_at',
]

async function read(
  tx: Tx,
  table: 'hospitals' | 'users',
  columns: string[],
  where: SQL,
): Promise<(string | null)[][]> {
  const selected = sql.join(
    columns.map(
      (c, i) => sql`to_jsonb(t.${sql.identifier(c)}) #>> '{}' as ${sql.identifier(`c${i}`)}`,
    ),
    sql`, `,
  )
  const result = await tx.execute(
    sql`select ${selected} from ${sql.identifier(table)} t where ${where} order by t.id`,
  )
  const rows = (result as unknown as { rows: Record<string, string | null>[] }).rows
  return rows.map((r) => columns.map((_, i) => r[`c${i}`] ?? null))
}

/**
 * hospital.csv (the hospital's profile) and team.csv (its users), read in a platform
 * transaction by the hospital's id. The hospital row is the first file, its name second.
 */
export async function readPlatformFiles(tx: Tx, hospitalId: string): Promise<PlatformFile[]> {
  await tx.execute(sql`select set_config('timezone', 'UTC', true)`)
  return [
    {
      name: 'hospital.csv',
      source: 'hospitals',
      header: HOSPITAL_COLUMNS,
      rows: await read(tx, 'hospitals', HOSPITAL_COLUMNS, sql`t.id = ${hospitalId}`),
    },
    {
      name: 'team.csv',
      source: 'users',
      header: USER_COLUMNS,
      rows: await read(tx, 'users', USER_COLUMNS, sql`t.hospital_id = ${hospitalId}`),
    },
  ]
}
