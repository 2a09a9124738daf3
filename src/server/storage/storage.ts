import type { Readable } from 'node:stream'
import { AppError } from '../http/app-error'
import { createFsStorage } from './fs-storage'
import { type S3Settings, storageEnv } from './storage-env'

/**
 * The one place files live (support-ticket attachments now; backups, exports and import uploads
 * later): a folder under DATA_DIR, or an S3-compatible bucket that several instances share
 * (docs/decisions/036-file-storage.md). Keys are opaque paths built by tenantKey.
 */
export interface ObjectStorage {
  /**
   * Streams body to key; aborts, deletes the partial object and throws
   * AppError('PAYLOAD_TOO_LARGE') (413) past maxBytes. An object appears whole or not at all.
   */
  put(
    key: string,
    body: Readable,
    opts: { maxBytes: number; contentType: string },
  ): Promise<{ size: number; sha256: string }>
  /** A readable stream of the object; AppError('NOT_FOUND') when missing. */
  get(key: string): Promise<Readable>
  /** Removes the object; a missing one is fine. */
  delete(key: string): Promise<void>
}

let instance: ObjectStorage | undefined

/**
 * The process's storage: the S3-compatible driver when S3_BUCKET is set, else the filesystem
 * under `${DATA_DIR}/uploads`. Made once, on first use.
 */
export function getStorage(): ObjectStorage {
  instance ??= createStorage(storageEnv())
  return instance
}

/** Tests only: forget the instance so the next getStorage() reads the environment again. */
export function resetStorageForTests(): void {
  instance = undefined
}

export function createStorage(env: ReturnType<typeof storageEnv>): ObjectStorage {
  if (env.s3) return lazyS3(env.s3)
  return createFsStorage(env.uploadsDir)
}

/**
 * The S3 driver, its SDK loaded on first use: a filesystem deployment never loads it, and the
 * server bundle keeps it external (scripts/build-server.mjs).
 */
function lazyS3(settings: S3Settings): ObjectStorage {
  let driver: Promise<ObjectStorage> | undefined
  const load = () => (driver ??= import('./s3-storage').then((m) => m.createS3Storage(settings)))
  return {
    put: async (key, body, opts) => (await load()).put(key, body, opts),
    get: async (key) => (await load()).get(key),
    delete: async (key) => (await load()).delete(key),
  }
}

/** One part of a key: lower-case letters, digits and dashes (uuids), 1–100 characters. */
const PART = /^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/

function checkPart(value: string, name: string): string {
  const part = value.toLowerCase()
  if (!PART.test(part)) {
    throw new AppError('VALIDATION', `Invalid storage key part: ${name}`, [
      { path: name, message: 'Use letters, digits and dashes only' },
    ])
  }
  return part
}

/** `h/<hospitalId>/<area>/<id>`: every part checked, so no key can climb out of its folder. */
export function tenantKey(hospitalId: string, area: string, id: string): string {
  return `h/${checkPart(hospitalId, 'hospitalId')}/${checkPart(area, 'area')}/${checkPart(id, 'id')}`
}
