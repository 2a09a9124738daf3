import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseSecretsKeys } from '../../secrets/keys'
import { installSecretsKeys } from '../../secrets/secrets'
import { BACKUP_CHUNK_BYTES, decryptStream, encryptStream } from './backup-crypto'

const A = '11111111-1111-4111-8111-111111111111'
const B = '22222222-2222-4222-8222-222222222222'
const KEY_1 = `k1:${Buffer.alloc(32, 1).toString('base64')}`
const KEY_2 = `k2:${Buffer.alloc(32, 2).toString('base64')}`

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = []
  for await (const chunk of stream) parts.push(chunk as Buffer)
  return Buffer.concat(parts)
}

const encrypt = (plain: Buffer, hospitalId = A) =>
  collect(
    Readable.from([plain.subarray(0, 1000), plain.subarray(1000)]).pipe(encryptStream(hospitalId)),
  )
const decrypt = (file: Buffer, hospitalId = A) =>
  collect(Readable.from([file]).pipe(decryptStream(hospitalId)))

beforeAll(() => installSecretsKeys(parseSecretsKeys(KEY_1)))

describe('the backup file format', () => {
  const plain = randomBytes(BACKUP_CHUNK_BYTES * 2 + 12_345)

  it('round-trips several chunks, and an empty archive', async () => {
    const file = await encrypt(plain)
    expect(file.subarray(0, 6).toString('latin1')).toBe('ARGBKP')
    expect((await decrypt(file)).equals(plain)).toBe(true)
    const empty = await collect(Readable.from([]).pipe(encryptStream(A)))
    expect((await decrypt(empty)).length).toBe(0)
  })

  it('refuses a file cut at a chunk boundary, a changed byte, a dropped chunk', async () => {
    const file = await encrypt(plain)
    const headerBytes = 8 + 16 + 1 + 2 + 8
    const frame = 4 + BACKUP_CHUNK_BYTES + 16
    await expect(decrypt(file.subarray(0, headerBytes + frame))).rejects.toThrow(/incomplete/)
    await expect(decrypt(file.subarray(0, headerBytes + 2 * frame))).rejects.toThrow(/incomplete/)
    const changed = Buffer.from(file)
    changed[headerBytes + frame + 100] = (changed[headerBytes + frame + 100] ?? 0) ^ 1
    await expect(decrypt(changed)).rejects.toThrow(/damaged/)
    const dropped = Buffer.concat([
      file.subarray(0, headerBytes),
      file.subarray(headerBytes + frame),
    ])
    await expect(decrypt(dropped)).rejects.toThrow(/damaged/)
    const extra = Buffer.concat([file, file.subarray(headerBytes, headerBytes + frame)])
    await expect(decrypt(extra)).rejects.toThrow(/damaged/)
  })

  it("refuses another hospital's file, an edited header, and a key the keyring lacks", async () => {
    const file = await encrypt(plain)
    await expect(decrypt(file, B)).rejects.toThrow(/another hospital/)
    // The header names B now, but the chunks were sealed for A (and under A's key).
    const edited = Buffer.from(file)
    Buffer.from(B.replace(/-/g, ''), 'hex').copy(edited, 8)
    await expect(decrypt(edited, B)).rejects.toThrow(/damaged/)
    installSecretsKeys(parseSecretsKeys(KEY_2))
    try {
      await expect(decrypt(file)).rejects.toThrow(/does not hold/)
    } finally {
      installSecretsKeys(parseSecretsKeys(KEY_1))
    }
    // After a rotation that keeps the old key, old files still open.
    installSecretsKeys(parseSecretsKeys(`${KEY_2},${KEY_1}`))
    try {
      expect((await decrypt(file)).equals(plain)).toBe(true)
    } finally {
      installSecretsKeys(parseSecretsKeys(KEY_1))
    }
    await expect(decrypt(Buffer.from('PK\u0003\u0004hello'))).rejects.toThrow(/not an Arogya/)
  })
})
