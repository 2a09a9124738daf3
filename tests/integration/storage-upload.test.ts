import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import fc from 'fast-check'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerErrorHandler } from '../../src/server/http/error-handler'
import { sendStoredFile } from '../../src/server/storage/download'
import { createFsStorage } from '../../src/server/storage/fs-storage'
import {
  assertDeclaredSize,
  readUploadFilename,
  registerRawUpload,
} from '../../src/server/storage/raw-body'
import { tenantKey } from '../../src/server/storage/storage'
import { type FileKind, receiveUpload } from '../../src/server/storage/upload'
import { samples, zipWithFirstEntry } from '../support/storage-samples'

/**
 * receiveUpload, sendStoredFile and the raw body parser behind a tiny Fastify app, as the
 * support-ticket attachment routes use them: POST the bytes (application/octet-stream,
 * X-Filename), GET them back as a download. Filesystem driver in a temp folder.
 */

const root = mkdtempSync(join(tmpdir(), 'arogya-upload-'))
const storage = createFsStorage(root)
const HOSPITAL = randomUUID()
const MAX = 64 * 1024
const ALL: FileKind[] = ['image', 'video', 'pdf', 'doc', 'docx', 'txt']
const stored = new Map<string, { filename: string; contentType: string; size: number }>()
let app: FastifyInstance
let base: string

beforeAll(async () => {
  app = Fastify()
  registerErrorHandler(app)
  await app.register(async (scope) => {
    registerRawUpload(scope)
    scope.post('/upload', async (request) => {
      const q = request.query as { allowed?: string }
      const allowed = q.allowed ? (q.allowed.split(',') as FileKind[]) : ALL
      assertDeclaredSize(request, MAX * 2)
      const id = randomUUID()
      const key = tenantKey(HOSPITAL, 'attachments', id)
      const saved = await receiveUpload({
        storage,
        key,
        body: request.body as Readable,
        filename: readUploadFilename(request),
        maxBytes: MAX,
        allowed,
      })
      stored.set(id, saved)
      return { id, ...saved }
    })
    scope.get('/files/:id', async (request, reply) => {
      const { id } = request.params as { id: string }
      const file = stored.get(id) ?? { filename: 'x.txt', contentType: 'text/plain', size: 0 }
      return sendStoredFile(reply, {
        storage,
        key: tenantKey(HOSPITAL, 'attachments', id),
        filename: file.filename,
        contentType: (request.query as { type?: string }).type ?? file.contentType,
        size: stored.has(id) ? file.size : undefined,
      })
    })
  })
  base = await app.listen({ port: 0, host: '127.0.0.1' })
})

afterAll(async () => {
  await app.close()
  rmSync(root, { recursive: true, force: true })
})

/** Files in storage, partial ones included. */
const filesOnDisk = () =>
  readdirSync(root, { recursive: true, withFileTypes: true }).filter((f) => f.isFile()).length

const upload = (body: Buffer, filename: string, query = '') =>
  app.inject({
    method: 'POST',
    url: `/upload${query}`,
    headers: {
      'content-type': 'application/octet-stream',
      'x-filename': encodeURIComponent(filename),
    },
    payload: body,
  })

async function expectRefused(
  body: Buffer,
  filename: string,
  status: number,
  path?: string,
  message?: RegExp,
) {
  const before = filesOnDisk()
  const res = await upload(body, filename)
  expect(res.statusCode, res.body).toBe(status)
  const json = res.json<{ issues?: { path: string; message: string }[]; message: string }>()
  if (path) expect(json.issues?.[0]?.path).toBe(path)
  if (message) expect(json.message).toMatch(message)
  expect(filesOnDisk()).toBe(before)
}

describe('receiveUpload', () => {
  it.each(Object.entries(samples))('accepts a real .%s and serves it back', async (ext, data) => {
    const res = await upload(data, `Report ${ext}.${ext}`)
    expect(res.statusCode, res.body).toBe(200)
    const saved = res.json<{ id: string; size: number; sha256: string; contentType: string }>()
    expect(saved.size).toBe(data.length)
    expect(saved.sha256).toMatch(/^[0-9a-f]{64}$/)
    const file = join(root, 'h', HOSPITAL, 'attachments', saved.id)
    expect(readFileSync(file)).toEqual(data)
    const down = await app.inject({ method: 'GET', url: `/files/${saved.id}` })
    expect(down.statusCode).toBe(200)
    expect(down.rawPayload).toEqual(data)
    expect(down.headers['content-type']).toBe(saved.contentType)
  })

  it('refuses content that is not what the extension says, storing nothing', async () => {
    await expectRefused(samples.png, 'scan.pdf', 400, 'file', /not a pdf file/)
    await expectRefused(samples.pdf, 'photo.jpg', 400, 'file', /not a jpg file/)
    await expectRefused(samples.png, 'photo.jpg', 400, 'file', /not a jpg file/)
    await expectRefused(
      Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'),
      'notes.txt',
      400,
      'file',
      /not a txt file/,
    )
    await expectRefused(
      zipWithFirstEntry('mimetype'),
      'letter.docx',
      400,
      'file',
      /not a docx file/,
    )
    await expectRefused(samples.docx, 'letter.doc', 400, 'file', /not a doc file/)
    await expectRefused(
      Buffer.from('<svg onload=alert(1)>'),
      'x.svg',
      400,
      'file',
      /\.svg cannot be attached/,
    )
    await expectRefused(Buffer.from('<html>'), 'page.html', 400, 'file')
    await expectRefused(samples.pdf, 'noextension', 400, 'file', /needs an extension/)
  })

  it('checks text to the end: invalid UTF-8 or a NUL past the first bytes is refused', async () => {
    const text = Buffer.from('a'.repeat(10_000))
    await expectRefused(Buffer.concat([text, Buffer.from([0xc3, 0x28])]), 'long.txt', 400, 'file')
    await expectRefused(Buffer.concat([text, Buffer.from([0])]), 'long.txt', 400, 'file')
    await expectRefused(Buffer.concat([text, Buffer.from([0xe0, 0xa4])]), 'cut.txt', 400, 'file')
  })

  it('refuses an empty file and a kind the route does not allow', async () => {
    await expectRefused(Buffer.alloc(0), 'empty.txt', 400, 'file', /empty/)
    const before = filesOnDisk()
    const res = await upload(samples.pdf, 'scan.pdf', '?allowed=image')
    expect(res.statusCode).toBe(400)
    expect(res.json<{ message: string }>().message).toMatch(/allowed: png, jpg, jpeg, gif, webp/)
    expect(filesOnDisk()).toBe(before)
  })

  it('takes exactly the limit and refuses one byte more (413), leaving nothing', async () => {
    const fits = Buffer.concat([samples.pdf, Buffer.alloc(MAX - samples.pdf.length, 0x20)])
    expect((await upload(fits, 'fits.pdf')).statusCode).toBe(200)
    await expectRefused(
      Buffer.concat([fits, Buffer.from(' ')]),
      'over.pdf',
      413,
      undefined,
      /larger than 64 KB/,
    )
  })

  it('refuses bad file names (400 filename)', async () => {
    for (const name of [
      'a/b.png',
      'a\\b.png',
      '..\\..\\x.png',
      'x\u0000.png',
      'x\n.png',
      '   ',
      'x'.repeat(197) + '.png',
      '\u202Egnp.txt',
    ]) {
      await expectRefused(samples.png, name, 400, 'filename')
    }
    expect((await upload(samples.png, 'x'.repeat(196) + '.png')).statusCode).toBe(200)
    expect(
      (await upload(samples.png, 'रिपोर्ट (1).png')).json<{ filename: string }>().filename,
    ).toBe('रिपोर्ट (1).png')
  })

  it('reads X-Filename: missing or badly encoded is a 400', async () => {
    for (const headers of [{}, { 'x-filename': '%E0%A4%A' }]) {
      const res = await app.inject({
        method: 'POST',
        url: '/upload',
        headers: { 'content-type': 'application/octet-stream', ...headers },
        payload: samples.png,
      })
      expect(res.statusCode).toBe(400)
      expect(res.json<{ issues: { path: string }[] }>().issues[0]!.path).toBe('filename')
    }
  })

  it('hostile bytes and names: never a 5xx, nothing stored on a refusal', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 3000 }),
        fc.constantFrom(...Object.keys(samples), 'exe', 'html', ''),
        fc.string({ maxLength: 30 }),
        async (data, ext, stem) => {
          const before = filesOnDisk()
          const res = await upload(Buffer.from(data), ext ? `${stem}.${ext}` : stem)
          expect(res.statusCode).toBeLessThan(500)
          if (res.statusCode !== 200) expect(filesOnDisk()).toBe(before)
        },
      ),
      { numRuns: 60 },
    )
  })
})

describe('over real HTTP', () => {
  it('a stream past the limit gets its 413 (connection closed), and nothing is left', async () => {
    const before = filesOnDisk()
    // Chunked (no Content-Length), so only the streaming limit can stop it.
    const big = Buffer.concat([samples.pdf, Buffer.alloc(8 * MAX, 0x20)])
    const res = await fetch(`${base}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'x-filename': 'big.pdf' },
      body: Readable.toWeb(Readable.from([big])) as ReadableStream,
      duplex: 'half',
    } as RequestInit)
    expect(res.status).toBe(413)
    expect(res.headers.get('connection')).toBe('close')
    expect(((await res.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE')
    expect(filesOnDisk()).toBe(before)
    expect(readdirSync(join(root, '.tmp'))).toEqual([])
  })

  it('a Content-Length over the limit is refused before the body is read', async () => {
    const { port } = new URL(base)
    const socket = connect(Number(port), '127.0.0.1')
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (answer += chunk))
    socket.write(
      'POST /upload HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/octet-stream\r\n' +
        `x-filename: huge.pdf\r\ncontent-length: ${MAX * 2 + 1}\r\n\r\n%PDF-`,
    )
    await expect.poll(() => answer, { timeout: 5000 }).toMatch(/PAYLOAD_TOO_LARGE/)
    expect(answer).toMatch(/^HTTP\/1.1 413/)
    expect(answer.toLowerCase()).toContain('connection: close')
    socket.destroy()
  })

  it('a client that drops the connection part-way leaves nothing behind', async () => {
    const before = filesOnDisk()
    const { port } = new URL(base)
    const socket = connect(Number(port), '127.0.0.1')
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.write(
      'POST /upload HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/octet-stream\r\n' +
        `x-filename: dropped.pdf\r\ncontent-length: ${MAX - 1}\r\n\r\n`,
    )
    socket.write(Buffer.concat([samples.pdf, Buffer.alloc(20_000, 0x20)]))
    await new Promise((resolve) => setTimeout(resolve, 200))
    socket.destroy()
    await expect.poll(() => readdirSync(join(root, '.tmp')).length, { timeout: 5000 }).toBe(0)
    expect(filesOnDisk()).toBe(before)
  })

  it('no body is an empty file; a JSON body is a 415, never a 5xx', async () => {
    const none = await fetch(`${base}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'x-filename': 'a.png' },
    })
    expect(none.status).toBe(400)
    const json = await fetch(`${base}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-filename': 'a.png' },
      body: '{"a":1}',
    })
    expect(json.status).toBe(415)
  })

  it('other content types are not taken as uploads', async () => {
    const res = await fetch(`${base}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'x-filename': 'a.png' },
      body: samples.png,
    })
    expect(res.status).toBe(415)
  })
})

describe('sendStoredFile', () => {
  it('sends an attachment with a safe type, nosniff, no-store and both filename forms', async () => {
    const up = await upload(samples.pdf, 'रिपोर्ट "final";1.pdf')
    const { id } = up.json<{ id: string }>()
    const res = await fetch(`${base}/files/${id}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="_______ _final__1.pdf"; filename*=UTF-8''${encodeURIComponent('रिपोर्ट "final";1.pdf')}`,
    )
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-length')).toBe(String(samples.pdf.length))
    expect(Buffer.from(await res.arrayBuffer())).toEqual(samples.pdf)
  })

  it('never serves html or svg as such', async () => {
    const { id } = (await upload(samples.txt, 'note.txt')).json<{ id: string }>()
    for (const type of ['text/html', 'image/svg+xml', 'application/xhtml+xml', 'text/javascript']) {
      const res = await app.inject({
        method: 'GET',
        url: `/files/${id}?type=${encodeURIComponent(type)}`,
      })
      expect(res.headers['content-type']).toBe('application/octet-stream')
    }
    const text = await app.inject({ method: 'GET', url: `/files/${id}` })
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8')
  })

  it('a missing file is a 404 in the one error shape', async () => {
    const res = await app.inject({ method: 'GET', url: `/files/${randomUUID()}` })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: 'File not found', code: 'NOT_FOUND' })
    expect(existsSync(join(root, '.tmp'))).toBe(true)
  })
})
