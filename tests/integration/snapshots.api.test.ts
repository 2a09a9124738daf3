import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/server/db/client'
import { listSnapshots, takeSnapshot } from '../../src/server/db/snapshots'
import { queryRows } from '../support/test-app'

// Issue 16: safe snapshots of the embedded database.
const root = mkdtempSync(join(tmpdir(), 'arogya-snap-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('embedded database snapshots', () => {
  it('are whole files (0600), the newest N are kept, and a restore brings every row back', async () => {
    const database = await openDatabase({ dataDir: join(root, 'data') })
    const dir = join(root, 'snapshots')
    try {
      await database.db.execute(sql`create table notes (id int primary key, body text)`)
      await database.db.execute(
        sql`insert into notes select g, 'note ' || g from generate_series(1, 500) g`,
      )
      const paths: string[] = []
      for (let i = 0; i < 4; i++) paths.push(await takeSnapshot(database, dir, 3))
      expect(listSnapshots(dir)).toEqual(paths.slice(1))
      const newest = paths.at(-1) ?? ''
      expect(statSync(newest).mode & 0o777).toBe(0o600)
      expect(statSync(dir).mode & 0o777).toBe(0o700)
      const restored = await openDatabase({
        dataDir: join(root, 'restored'),
        restoreFrom: await readFile(newest),
      })
      try {
        const [row] = await queryRows<{ n: number; last: string }>(
          restored.db,
          sql`select count(*)::int as n, max(body) filter (where id = 500) as last from notes`,
        )
        expect(row).toEqual({ n: 500, last: 'note 500' })
      } finally {
        await restored.close()
      }
    } finally {
      await database.close()
    }
  }, 120_000)
})
