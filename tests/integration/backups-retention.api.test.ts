import { randomUUID } from 'node:crypto'
import { Readable } from 'node:stream'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BackupLog } from '../../src/shared/schemas/backup'
import { encryptSecret } from '../../src/server/secrets/secrets'
import { pruneOldBackups } from '../../src/server/modules/backups/backup-retention'
import { driveContext } from '../../src/server/modules/backups/backups.service'
import { getStorage, resetStorageForTests, tenantKey } from '../../src/server/storage/storage'
import { startFakeDrive, type FakeDrive } from '../support/fakes/google-drive'
import { call } from '../support/leads'
import { login } from '../support/login'
import {
  createTestApp,
  demoEmail,
  type DemoHospital,
  hospitalIdOf,
  queryRows,
  type TestApp,
} from '../support/test-app'

// Issue 39, item 7: one hospital's Drive failure does not stop another's retention, and each
// backup's log tells the truth about its local file and its Drive copy, separately.

let t: TestApp
let drive: FakeDrive
let dataDir: string
/** The hospital retention reaches first (hospitals are walked by id), whose Drive fails. */
let failing: string
let healthy: string
const previous = { dataDir: process.env.DATA_DIR, drive: process.env.GOOGLE_DRIVE_BASE_URL }
const TOKEN = 'ya29.valid-drive-token'
const logOf: Record<string, string> = {}
const keyOf: Record<string, string> = {}
const slugOf: Record<string, DemoHospital> = {}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'arogya-retention-'))
  process.env.DATA_DIR = dataDir
  drive = await startFakeDrive(TOKEN)
  process.env.GOOGLE_DRIVE_BASE_URL = drive.url
  resetStorageForTests()
  t = await createTestApp()
  for (const slug of ['sanjeevani', 'smiledental'] as const) {
    slugOf[await hospitalIdOf(t.db, slug)] = slug
  }
  const ids = Object.keys(slugOf).sort()
  failing = ids[0]!
  healthy = ids[1]!
  for (const h of [failing, healthy]) {
    // The failing hospital's token was revoked in Google: Drive answers 401.
    const token = encryptSecret(h === failing ? 'ya29.revoked' : TOKEN, driveContext(h))
    const [config] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into backup_configurations (hospital_id, backup_type, frequency, data_types,
            gdrive_access_token_enc)
          values (${h}, 'gdrive', '1day', '{leads}', ${token}) returning id`,
    )
    const key = tenantKey(h, 'backups', randomUUID())
    await getStorage().put(key, Readable.from([Buffer.from('old backup bytes')]), {
      maxBytes: 1000,
      contentType: 'application/octet-stream',
    })
    const [log] = await queryRows<{ id: string }>(
      t.db,
      sql`insert into backup_logs (hospital_id, configuration_id, status, backup_type, data_types,
            started_at, finished_at, storage_key, drive_file_id, data_size)
          values (${h}, ${config!.id}, 'success', 'gdrive', '{leads}', now() - interval '40 days',
            now() - interval '40 days', ${key}, ${`drive-${h}`}, 16)
          returning id`,
    )
    logOf[h] = log!.id
    keyOf[h] = key
  }
}, 180_000)

afterAll(async () => {
  await t?.close()
  await drive?.close()
  process.env.DATA_DIR = previous.dataDir
  if (previous.drive === undefined) delete process.env.GOOGLE_DRIVE_BASE_URL
  else process.env.GOOGLE_DRIVE_BASE_URL = previous.drive
  resetStorageForTests()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

interface Row {
  storage_key: string | null
  local_deleted: boolean
  drive_deleted: boolean
  drive_delete_error: string | null
}

const row = async (h: string): Promise<Row | undefined> =>
  (
    await queryRows<Row>(
      t.db,
      sql`select storage_key, files_deleted_at is not null as local_deleted,
            drive_deleted_at is not null as drive_deleted, drive_delete_error
          from backup_logs where id = ${logOf[h]!}`,
    )
  )[0]

describe('retention, hospital by hospital', () => {
  it('goes on past a hospital whose Drive fails, and records each deletion on its own', async () => {
    const warnings: object[] = []
    const log = {
      info: () => undefined,
      warn: (o: object) => void warnings.push(o),
      error: (o: object) => void warnings.push(o),
    }
    expect(await pruneOldBackups(t.db, new Date(), log)).toBe(2)
    // The other hospital's expired backup is gone, locally and from its Drive.
    expect(await row(healthy)).toEqual({
      storage_key: null,
      local_deleted: true,
      drive_deleted: true,
      drive_delete_error: null,
    })
    await expect(getStorage().get(keyOf[healthy]!)).rejects.toThrow()
    // The failing hospital's local file is gone and its log says so; the Drive copy is not,
    // and its log says why.
    expect(await row(failing)).toEqual({
      storage_key: null,
      local_deleted: true,
      drive_deleted: false,
      drive_delete_error:
        'Google Drive refused the access token (401). Update the configuration with a new token.',
    })
    await expect(getStorage().get(keyOf[failing]!)).rejects.toThrow()
    expect(warnings).toHaveLength(1)
    const admin = await login(t.app, demoEmail('admin', slugOf[failing]))
    const res = await call(t.app, admin, 'GET', `/api/backup/logs/${logOf[failing]!}`)
    expect((res.json() as { log: BackupLog }).log.downloadable).toBe(false)
  })

  it('retries only the Drive copy next hour, and clears the error once Drive deletes it', async () => {
    const token = encryptSecret(TOKEN, driveContext(failing))
    await t.db.execute(
      sql`update backup_configurations set gdrive_access_token_enc = ${token}
          where hospital_id = ${failing}`,
    )
    expect(await pruneOldBackups(t.db)).toBe(1)
    expect(await row(failing)).toEqual({
      storage_key: null,
      local_deleted: true,
      drive_deleted: true,
      drive_delete_error: null,
    })
    // Nothing is left to do.
    expect(await pruneOldBackups(t.db)).toBe(0)
  })
})
