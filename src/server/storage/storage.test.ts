import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { describe, expect, it } from 'vitest'
import { formatStorageBytes, storageQuotaMessage } from '../../shared/schemas/storage'
import { loadEnv } from '../env'
import { AppError } from '../http/app-error'
import { contentDisposition, servedContentType } from './download'
import { sniff } from './sniff'
import { limitToRoom, uploadRoom } from './quota-upload'
import { tenantKey } from './storage'
import { storageEnv } from './storage-env'
import { checkFilename, extensionOf, extensionsFor, safeContentType } from './upload'

const UUID = '0b5c7f2e-6a1d-4c3b-9e8f-123456789abc'

describe('tenantKey', () => {
  it('builds h/<hospital>/<area>/<id>, lower-cased', () => {
    expect(tenantKey(UUID.toUpperCase(), 'ticket-attachments', UUID)).toBe(
      `h/${UUID}/ticket-attachments/${UUID}`,
    )
  })
  it.each(['..', '../x', 'a/b', '', '-a', 'a-', 'a b', 'a.b', 'a\u0000', 'x'.repeat(101)])(
    'refuses %j as any part',
    (bad) => {
      expect(() => tenantKey(bad, 'area', UUID)).toThrow(/Invalid storage key part/)
      expect(() => tenantKey(UUID, bad, UUID)).toThrow()
      expect(() => tenantKey(UUID, 'area', bad)).toThrow()
    },
  )
})

describe('sniff', () => {
  const b = (s: string) => Buffer.from(s, 'latin1')
  it('tells the kinds apart by their first bytes', () => {
    expect(sniff(b('\x89PNG\r\n\x1a\nrest'))).toBe('png')
    expect(sniff(b('\xff\xd8\xff\xe0'))).toBe('jpeg')
    expect(sniff(b('GIF87a..'))).toBe('gif')
    expect(sniff(b('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp')
    expect(sniff(b('RIFF\0\0\0\0AVI LIST'))).toBe('unknown')
    expect(sniff(b('\0\0\0\x18ftypmp42'))).toBe('ftyp')
    expect(sniff(b('\x1aE\xdf\xa3'))).toBe('webm')
    expect(sniff(b('%PDF-1.4'))).toBe('pdf')
    expect(sniff(b('\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1'))).toBe('ole')
    expect(sniff(b('PK\x03\x04'))).toBe('zip')
    expect(sniff(b('hello'))).toBe('text')
    expect(sniff(b('MZ\x90\0'))).toBe('unknown')
    expect(sniff(Buffer.alloc(0))).toBe('unknown')
  })
})

describe('checkFilename', () => {
  it('keeps a good name, NFC and trimmed', () => {
    expect(checkFilename('  Re\u0301sume\u0301.pdf ')).toBe('Résumé.pdf')
    expect(checkFilename('रिपोर्ट (1).png')).toBe('रिपोर्ट (1).png')
  })
  it.each(['', ' ', '.', '..', 'a/b.txt', 'a\\b.txt', 'a\tb.txt', 'a\u007fb.txt', 'a\u202eb.txt'])(
    'refuses %j with a filename issue',
    (name) => {
      expect(() => checkFilename(name)).toThrow(
        expect.objectContaining({ issues: [expect.objectContaining({ path: 'filename' })] }),
      )
    },
  )
  it('allows 200 characters, not 201', () => {
    expect(checkFilename(`${'a'.repeat(196)}.txt`)).toHaveLength(200)
    expect(() => checkFilename(`${'a'.repeat(197)}.txt`)).toThrow(/longer than 200/)
  })
  it('reads the extension lower-cased; none for a dot-file', () => {
    expect(extensionOf('A.B.PDF')).toBe('pdf')
    expect(extensionOf('.bashrc')).toBe('')
    expect(extensionOf('noext')).toBe('')
  })
})

describe('content types', () => {
  it('comes from the checked kind and extension only', () => {
    expect(safeContentType('image', 'png')).toBe('image/png')
    expect(safeContentType('image', '.JPG')).toBe('image/jpeg')
    expect(safeContentType('txt', 'txt')).toBe('text/plain; charset=utf-8')
    expect(safeContentType('video', 'mov')).toBe('video/quicktime')
    expect(safeContentType('image', 'pdf')).toBe('application/octet-stream')
    expect(safeContentType('image', 'svg')).toBe('application/octet-stream')
    expect(extensionsFor(['doc', 'docx'])).toEqual(['doc', 'docx'])
  })
  it('serves only safe types', () => {
    expect(servedContentType('image/png')).toBe('image/png')
    expect(servedContentType('TEXT/PLAIN; charset=latin1')).toBe('text/plain; charset=utf-8')
    for (const t of ['text/html', 'image/svg+xml', 'application/javascript', 'text/xml', '']) {
      expect(servedContentType(t)).toBe('application/octet-stream')
    }
  })
  it('offers an ASCII fallback and the UTF-8 name', () => {
    expect(contentDisposition('a.pdf')).toBe(`attachment; filename="a.pdf"; filename*=UTF-8''a.pdf`)
    expect(contentDisposition('डॉ\'s "x".txt')).toBe(
      `attachment; filename="__'s _x_.txt"; filename*=UTF-8''%E0%A4%A1%E0%A5%89%27s%20%22x%22.txt`,
    )
    expect(contentDisposition('\r\n')).toBe(`attachment; filename="__"; filename*=UTF-8''%0D%0A`)
  })
})

describe('storage settings', () => {
  it('is the filesystem under DATA_DIR/uploads without S3_BUCKET', () => {
    const env = storageEnv({ DATA_DIR: '/srv/arogya' })
    expect(env).toEqual({ uploadsDir: '/srv/arogya/uploads', s3: undefined })
  })
  it('is S3 with S3_BUCKET', () => {
    const env = storageEnv({
      S3_BUCKET: 'arogya-files',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: 'prod/',
    })
    expect(env.s3).toEqual({
      bucket: 'arogya-files',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      prefix: 'prod/',
    })
  })
  it('refuses half a key pair, a bad bucket or prefix, at start-up too', () => {
    expect(() => storageEnv({ S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'id' })).toThrow(/together/)
    expect(() => storageEnv({ S3_BUCKET: 'Bad_Bucket' })).toThrow(/S3_BUCKET/)
    expect(() => storageEnv({ S3_BUCKET: 'ok-bucket', S3_PREFIX: '/abs' })).toThrow(/S3_PREFIX/)
    expect(() => loadEnv({ S3_SECRET_ACCESS_KEY: 'x' })).toThrow(/S3_SECRET_ACCESS_KEY/)
  })
})

describe('the disk quota (issue 39)', () => {
  const room = (remainingBytes: number) => ({
    hospitalId: UUID,
    limitBytes: 2 * 1024 ** 3,
    usedBytes: 2 * 1024 ** 3 - remainingBytes,
    remainingBytes,
    settleAlone: async () => undefined,
  })

  it('writes sizes as people read them, and names the limit and the usage', () => {
    expect(formatStorageBytes(0)).toBe('0 bytes')
    expect(formatStorageBytes(1536)).toBe('1.5 KB')
    expect(formatStorageBytes(312 * 1024 * 1024)).toBe('312 MB')
    expect(formatStorageBytes(1.9 * 1024 ** 3)).toBe('1.9 GB')
    expect(formatStorageBytes(2 * 1024 ** 3)).toBe('2 GB')
    expect(storageQuotaMessage(1.9 * 1024 ** 3, 2 * 1024 ** 3)).toMatch(
      /^This hospital has used 1.9 GB of its 2 GB storage, and this would go over it\./,
    )
  })

  it('lets an upload of exactly the room left through, byte for byte', async () => {
    const data = Buffer.alloc(1000, 7)
    const limited = limitToRoom(
      Readable.from([data.subarray(0, 400), data.subarray(400)]),
      room(1000),
    )
    expect(uploadRoom(limited)?.remainingBytes).toBe(1000)
    expect((await buffer(limited)).equals(data)).toBe(true)
  })

  it('fails past the room with 413 STORAGE_QUOTA_EXCEEDED, and reads nothing until read', async () => {
    let pulled = 0
    const source = new Readable({
      read() {
        pulled++
        // Never ends: a client still sending.
        if (pulled < 5) this.push(Buffer.alloc(600, 1))
      },
    })
    const limited = limitToRoom(source, room(1000))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(pulled).toBe(0)
    const error = await buffer(limited).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('STORAGE_QUOTA_EXCEEDED')
    expect((error as AppError).status).toBe(413)
    expect((error as AppError).message).toMatch(/^This hospital has used 2 GB of its 2 GB storage/)
    // The request itself is left whole (feed), so the 413 can still be answered.
    expect(source.destroyed).toBe(false)
  })
})
