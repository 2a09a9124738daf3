import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { Transform, type TransformCallback } from 'node:stream'
import { derivedKey } from '../../secrets/secrets'

/*
 * The backup file (docs/decisions/039-backups.md): the archive encrypted with AES-256-GCM in
 * fixed-size chunks, so that neither writing nor reading holds more than one chunk:
 *
 *   header  "ARGBKP" 0x00 0x01 | hospital id (16) | key id length (1) | key id | file nonce (8)
 *   chunk   ciphertext length (4, big-endian) | ciphertext | GCM tag (16)        (repeated)
 *
 * Chunk i's nonce is the file nonce followed by i (4 bytes, big-endian); its additional data is
 * the whole header followed by one byte, 1 on the last chunk and 0 otherwise. So a chunk moved,
 * dropped, repeated or changed fails its tag, the header cannot be edited (it is in every tag),
 * and a file cut after any chunk lacks its final chunk and is refused as truncated. The key is
 * derived with HKDF from the installed secrets master key and the hospital id: another
 * hospital's key (or another installation's) never opens it.
 */

const MAGIC = Buffer.from([0x41, 0x52, 0x47, 0x42, 0x4b, 0x50, 0x00, 0x01])
export const BACKUP_CHUNK_BYTES = 256 * 1024
const TAG_BYTES = 16
const NONCE_PREFIX_BYTES = 8
const MAX_HEADER_BYTES = MAGIC.length + 16 + 1 + 64 + NONCE_PREFIX_BYTES

/** A backup file that cannot be read; the message is written for the hospital's admins. */
export class BackupFileError extends Error {
  override name = 'BackupFileError'
}

export const NOT_A_BACKUP = 'This is not an Arogya CRM backup file.'
export const TRUNCATED = 'The backup file is incomplete (it was cut short); use a complete copy.'
export const DAMAGED =
  'The backup file is damaged or was encrypted with another key; it cannot be restored.'
export const UNKNOWN_KEY =
  'The backup was encrypted under a key this installation does not hold (SECRETS_KEY); it cannot be restored here.'
export const otherHospital = () =>
  new BackupFileError(
    'This backup belongs to another hospital; a backup can only be restored into the hospital it was taken from.',
  )

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex')
const uuidText = (b: Buffer) => {
  const h = b.toString('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

const purpose = (hospitalId: string) => `backup:${hospitalId.toLowerCase()}`

export interface BackupHeader {
  hospitalId: string
  keyId: string
  bytes: Buffer
  nonce: Buffer
}

function makeHeader(hospitalId: string, keyId: string): BackupHeader {
  const nonce = randomBytes(NONCE_PREFIX_BYTES)
  const id = Buffer.from(keyId, 'utf8')
  const bytes = Buffer.concat([MAGIC, uuidBytes(hospitalId), Buffer.from([id.length]), id, nonce])
  return { hospitalId, keyId, bytes, nonce }
}

/** The header at the start of `data`, null while more bytes are needed; throws when not one. */
export function parseHeader(data: Buffer): BackupHeader | null {
  const need = MAGIC.length + 16 + 1
  if (data.length < Math.min(need, MAGIC.length)) return null
  if (
    !data
      .subarray(0, Math.min(data.length, MAGIC.length))
      .equals(MAGIC.subarray(0, Math.min(data.length, MAGIC.length)))
  ) {
    throw new BackupFileError(NOT_A_BACKUP)
  }
  if (data.length < need) return null
  const idLength = data[need - 1] ?? 0
  const end = need + idLength + NONCE_PREFIX_BYTES
  if (idLength === 0 || end > MAX_HEADER_BYTES) throw new BackupFileError(NOT_A_BACKUP)
  if (data.length < end) return null
  return {
    hospitalId: uuidText(data.subarray(MAGIC.length, MAGIC.length + 16)),
    keyId: data.subarray(need, need + idLength).toString('utf8'),
    bytes: Buffer.from(data.subarray(0, end)),
    nonce: Buffer.from(data.subarray(need + idLength, end)),
  }
}

function nonceOf(prefix: Buffer, index: number): Buffer {
  const nonce = Buffer.alloc(12)
  prefix.copy(nonce, 0)
  nonce.writeUInt32BE(index, NONCE_PREFIX_BYTES)
  return nonce
}

const aadOf = (header: Buffer, final: boolean) =>
  Buffer.concat([header, Buffer.from([final ? 1 : 0])])

/** Plain archive bytes in, the encrypted backup file out (chunk by chunk). */
export function encryptStream(hospitalId: string): Transform {
  const derived = derivedKey(purpose(hospitalId))
  if (!derived) throw new Error('backup: no secrets key installed')
  const header = makeHeader(hospitalId, derived.id)
  let index = 0
  let pending: Buffer[] = []
  let pendingBytes = 0
  let headerSent = false

  const seal = (plain: Buffer, final: boolean): Buffer => {
    if (index >= 0xffffffff) throw new Error('backup: too many chunks')
    const cipher = createCipheriv('aes-256-gcm', derived.key, nonceOf(header.nonce, index), {
      authTagLength: TAG_BYTES,
    })
    cipher.setAAD(aadOf(header.bytes, final))
    const ct = Buffer.concat([cipher.update(plain), cipher.final()])
    index += 1
    const length = Buffer.alloc(4)
    length.writeUInt32BE(ct.length)
    return Buffer.concat([length, ct, cipher.getAuthTag()])
  }

  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      try {
        if (!headerSent) {
          this.push(header.bytes)
          headerSent = true
        }
        pending.push(chunk)
        pendingBytes += chunk.length
        while (pendingBytes > BACKUP_CHUNK_BYTES) {
          const all = Buffer.concat(pending)
          this.push(seal(all.subarray(0, BACKUP_CHUNK_BYTES), false))
          const rest = all.subarray(BACKUP_CHUNK_BYTES)
          pending = [rest]
          pendingBytes = rest.length
        }
        done()
      } catch (error) {
        done(error as Error)
      }
    },
    flush(done: TransformCallback) {
      try {
        if (!headerSent) this.push(header.bytes)
        this.push(seal(Buffer.concat(pending), true))
        pending = []
        done()
      } catch (error) {
        done(error as Error)
      }
    },
  })
}

/**
 * The encrypted backup file in, the plain archive out; fails with a BackupFileError for a
 * file that is not a backup, belongs to another hospital than `expectHospitalId`, is cut
 * short, changed, or was encrypted under a key the keyring does not hold.
 */
export function decryptStream(expectHospitalId: string): Transform {
  let buffer: Buffer = Buffer.alloc(0)
  let header: BackupHeader | null = null
  let key: Buffer | null = null
  let index = 0
  let finished = false
  const maxFrame = 4 + BACKUP_CHUNK_BYTES + TAG_BYTES

  const open = (ct: Buffer, tag: Buffer, final: boolean): Buffer | null => {
    if (!header || !key) return null
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, nonceOf(header.nonce, index), {
        authTagLength: TAG_BYTES,
      })
      decipher.setAAD(aadOf(header.bytes, final))
      decipher.setAuthTag(tag)
      return Buffer.concat([decipher.update(ct), decipher.final()])
    } catch {
      return null
    }
  }

  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      try {
        buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk
        if (!header) {
          header = parseHeader(buffer)
          if (!header) return done()
          if (header.hospitalId !== expectHospitalId.toLowerCase()) throw otherHospital()
          const derived = derivedKey(purpose(header.hospitalId), header.keyId)
          if (!derived) throw new BackupFileError(UNKNOWN_KEY)
          key = derived.key
          buffer = buffer.subarray(header.bytes.length)
        }
        for (;;) {
          if (buffer.length < 4) break
          if (finished) throw new BackupFileError(DAMAGED)
          const length = buffer.readUInt32BE(0)
          if (length + 4 + TAG_BYTES > maxFrame) throw new BackupFileError(DAMAGED)
          const frame = 4 + length + TAG_BYTES
          if (buffer.length < frame) break
          const ct = buffer.subarray(4, 4 + length)
          const tag = buffer.subarray(4 + length, frame)
          // A chunk is the last one when its tag verifies with the final flag set.
          let plain = open(ct, tag, false)
          if (!plain) {
            plain = open(ct, tag, true)
            if (!plain) throw new BackupFileError(DAMAGED)
            finished = true
          }
          index += 1
          if (plain.length) this.push(plain)
          buffer = buffer.subarray(frame)
        }
        done()
      } catch (error) {
        done(error as Error)
      }
    },
    flush(done: TransformCallback) {
      if (!header) return done(new BackupFileError(buffer.length ? TRUNCATED : NOT_A_BACKUP))
      if (!finished || buffer.length) return done(new BackupFileError(TRUNCATED))
      done()
    },
  })
}
