import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { type Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { IMPORT_MAX_BYTES } from '../../../shared/schemas/lead-import'
import { AppError } from '../../http/app-error'
import { uploadRoom } from '../../storage/quota-upload'
import { folderBytes, hospitalDir, uploadPath } from './leads.import-files'
import { hospitalBytesExceeded } from './leads.import-limits'

/** The hospital's import folder is summed again after every this many bytes of an upload. */
const RECHECK_BYTES = 4 * 1024 * 1024

const fileTooLarge = () =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB; split it into smaller files`,
  )

/**
 * Counts an upload's bytes as they pass and fails the stream past the per-file cap, or past
 * the hospital's import bytes: the folder's other files at the start, summed again every few
 * MB so that uploads streaming at the same time (on any instance: the folder is shared
 * storage and the one truth) count each other.
 */
function uploadCap(dir: string, othersBytes: number, quota: number) {
  let seen = 0
  let nextCheck = RECHECK_BYTES
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length
      if (seen > IMPORT_MAX_BYTES) {
        callback(fileTooLarge())
        return
      }
      if (othersBytes + seen > quota) {
        callback(hospitalBytesExceeded(quota))
        return
      }
      if (seen < nextCheck) {
        callback(null, chunk)
        return
      }
      nextCheck = seen + RECHECK_BYTES
      folderBytes(dir).then(
        (total) =>
          callback(total + chunk.length > quota ? hospitalBytesExceeded(quota) : null, chunk),
        () => callback(null, chunk),
      )
    },
  })
}

/**
 * Streams a request body into DATA_DIR/imports/<hospital>/<new id>.csv under the per-file cap
 * and the hospital's bytes quota (413 naming the limit). On any failure the partial file is
 * removed. The body is only unpiped, not destroyed, so that the 413 still reaches the client
 * (the route then closes the connection, as Fastify does past its bodyLimit).
 */
export async function saveUpload(
  body: NodeJS.ReadableStream,
  hospitalId: string,
  maxHospitalBytes: number,
): Promise<{ fileId: string; path: string }> {
  // Issue 39: the body is held to the hospital's disk quota (storage/quota-upload.ts).
  const room = uploadRoom(body)
  const dir = hospitalDir(hospitalId)
  await mkdir(dir, { recursive: true })
  const othersBytes = await folderBytes(dir)
  if (othersBytes >= maxHospitalBytes) throw hospitalBytesExceeded(maxHospitalBytes)
  const fileId = randomUUID()
  const path = uploadPath(hospitalId, fileId)
  const cap = uploadCap(dir, othersBytes, maxHospitalBytes)
  const saving = pipeline(cap, createWriteStream(path, { mode: 0o600 }))
  const onError = (error: Error) => cap.destroy(error)
  body.on('error', onError)
  // A body cut before it got here (over the disk quota) has failed already: nothing is kept.
  const failed = (body as Readable).errored
  if (failed) cap.destroy(failed)
  else body.pipe(cap)
  try {
    await saving
    // Uploads that finished together are each over the quota when together they are.
    if ((await folderBytes(dir)) > maxHospitalBytes) throw hospitalBytesExceeded(maxHospitalBytes)
    // And the disk quota, under its lock: the file is in the folder, so it adds nothing more.
    if (room) await room.settleAlone(0)
    return { fileId, path }
  } catch (error) {
    await rm(path, { force: true })
    throw error
  } finally {
    body.unpipe(cap)
    body.removeListener('error', onError)
  }
}
