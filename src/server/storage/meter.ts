import { createHash } from 'node:crypto'
import { Transform } from 'node:stream'
import { tooLarge } from './object-key'

export interface Meter extends Transform {
  /** Bytes that passed so far. */
  readonly bytes: () => number
  /** Hex SHA-256 of everything that passed; call once the stream has ended. */
  readonly sha256: () => string
  /** True once the stream failed because it passed maxBytes. */
  readonly overLimit: () => boolean
}

/**
 * Counts and hashes the bytes that pass and fails the stream with a 413 as soon as they pass
 * maxBytes, so nothing past the limit is ever written.
 */
export function createMeter(maxBytes: number): Meter {
  const hash = createHash('sha256')
  let bytes = 0
  let over = false
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length
      if (bytes > maxBytes) {
        over = true
        callback(tooLarge(maxBytes))
        return
      }
      hash.update(chunk)
      callback(null, chunk)
    },
  }) as Meter
  Object.assign(meter, {
    bytes: () => bytes,
    sha256: () => hash.copy().digest('hex'),
    overLimit: () => over,
  })
  return meter
}
