import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, open, rename, rm } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { Readable } from 'node:stream'
import { finished } from 'node:stream/promises'
import { feed } from './feed'
import { createMeter } from './meter'
import { assertKey, objectMissing, tooLarge } from './object-key'
import type { ObjectStorage } from './storage'

/**
 * Files under root (DATA_DIR/uploads): each object at root/<key>, written first to
 * root/.tmp/<uuid> and renamed into place once complete, so a reader never sees half a file
 * and a failed or refused upload leaves nothing. Folders 0700, files 0600.
 */
export function createFsStorage(root: string): ObjectStorage {
  const base = resolve(root)
  const tmpDir = join(base, '.tmp')
  const pathOf = (key: string) => {
    assertKey(key)
    return join(base, ...key.split('/'))
  }

  return {
    async put(key, body, { maxBytes }) {
      const path = pathOf(key)
      await mkdir(tmpDir, { recursive: true, mode: 0o700 })
      await mkdir(dirname(path), { recursive: true, mode: 0o700 })
      const tmp = join(tmpDir, randomUUID())
      const meter = createMeter(maxBytes)
      const file = createWriteStream(tmp, { mode: 0o600, flags: 'wx' })
      let firstError: unknown
      meter.on('error', (error) => {
        firstError ??= error
        file.destroy(error)
      })
      meter.pipe(file)
      const detach = feed(body, meter)
      try {
        await finished(file)
        await rename(tmp, path)
        return { size: meter.bytes(), sha256: meter.sha256() }
      } catch (error) {
        await rm(tmp, { force: true })
        if (meter.overLimit()) throw tooLarge(maxBytes)
        throw firstError ?? error
      } finally {
        detach()
      }
    },

    async get(key) {
      const path = pathOf(key)
      try {
        const handle = await open(path, 'r')
        if (!(await handle.stat()).isFile()) {
          await handle.close()
          throw objectMissing()
        }
        return handle.createReadStream() as Readable
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw objectMissing()
        throw error
      }
    },

    async delete(key) {
      await rm(pathOf(key), { force: true })
    },
  }
}
