import { Readable } from 'node:stream'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chooseEncoding, registerCompression } from './compress'

describe('chooseEncoding', () => {
  it('prefers gzip among equally acceptable encodings, as a browser offers them', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('gzip')
    expect(chooseEncoding('br, gzip')).toBe('gzip')
  })

  it('follows q-values, and q=0 means not this one', () => {
    expect(chooseEncoding('br;q=1, gzip;q=0.5')).toBe('br')
    expect(chooseEncoding('gzip;q=0, br')).toBe('br')
    expect(chooseEncoding('gzip;q=0, br;q=0')).toBeNull()
  })

  it('reads * and x-gzip as gzip and ignores codings it does not know', () => {
    expect(chooseEncoding('*')).toBe('gzip')
    expect(chooseEncoding('x-gzip')).toBe('gzip')
    expect(chooseEncoding('zstd, compress')).toBeNull()
    expect(chooseEncoding('identity')).toBe('identity')
    expect(chooseEncoding(undefined)).toBeNull()
    expect(chooseEncoding('')).toBeNull()
  })
})

describe('response compression', () => {
  let app: FastifyInstance
  const rows = Array.from({ length: 30 }, (_, i) => ({
    id: i,
    name: `Patient ${i}`,
    notes: 'Type 2 diabetes, on metformin 500 mg twice daily',
  }))

  beforeAll(async () => {
    app = Fastify()
    await registerCompression(app)
    app.get('/page', async () => rows)
    app.get('/small', async () => ({ ok: true }))
    app.get('/stream', async (_req, reply) =>
      reply.type('text/plain').send(Readable.from(['hello '.repeat(1000)])),
    )
    app.get('/partial', async (_req, reply) =>
      reply.status(206).header('content-range', 'bytes 0-1999/4000').send('x'.repeat(2000)),
    )
    app.get('/image', async (_req, reply) => reply.type('image/png').send(Buffer.alloc(4000)))
    await app.ready()
  })
  afterAll(() => app.close())

  const get = (url: string, encoding?: string) =>
    app.inject({
      method: 'GET',
      url,
      headers: encoding === undefined ? {} : { 'accept-encoding': encoding },
    })

  it('sends a JSON page as gzip to a browser, with its length and Vary', async () => {
    const res = await get('/page', 'gzip, deflate, br, zstd')
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(res.headers.vary).toContain('accept-encoding')
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length)
    expect(JSON.parse(gunzipSync(res.rawPayload).toString())).toEqual(rows)
    expect(res.rawPayload.length).toBeLessThan(JSON.stringify(rows).length / 3)
  })

  it('sends brotli or deflate to a client that takes only that', async () => {
    const br = await get('/page', 'br')
    expect(br.headers['content-encoding']).toBe('br')
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(rows)
    const deflate = await get('/page', 'deflate')
    expect(deflate.headers['content-encoding']).toBe('deflate')
    expect(JSON.parse(inflateSync(deflate.rawPayload).toString())).toEqual(rows)
  })

  it('sends the body as it is when not asked, asked for identity, or offered nothing it has', async () => {
    for (const encoding of [undefined, 'identity', 'zstd', 'gzip;q=0']) {
      const res = await get('/page', encoding)
      expect(res.headers['content-encoding']).toBeUndefined()
      expect(res.json()).toEqual(rows)
    }
  })

  it('leaves bodies under 1 KB, partial content and images uncompressed', async () => {
    for (const url of ['/small', '/partial', '/image']) {
      const res = await get(url, 'gzip')
      expect(res.headers['content-encoding'], url).toBeUndefined()
    }
  })

  it('still compresses streams (through @fastify/compress, same preference)', async () => {
    const res = await get('/stream', 'br, gzip')
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(res.rawPayload).toString()).toBe('hello '.repeat(1000))
  })
})
