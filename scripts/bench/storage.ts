// The storage part (issue 28): a 50 MB attachment streamed through receiveUpload into the
// filesystem driver and back out through sendStoredFile, over real HTTP (a tiny Fastify app
// on 127.0.0.1 with the same raw-body parser the attachment routes use). Prints MB/s each way
// and how far RSS grew above its level before the file (goal < 20 MB: nothing is buffered
// whole). With s3rver installed (a dev dependency) the same through the S3 driver, whose
// multipart upload holds up to two 5 MB parts in memory.
//
//   npx tsx scripts/bench/storage.ts                      this part alone
//   BENCH_STORAGE_MB=10 npx tsx scripts/bench/storage.ts  a smaller file
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import Fastify from 'fastify'
import { registerErrorHandler } from '../../src/server/http/error-handler'
import { sendStoredFile } from '../../src/server/storage/download'
import { createFsStorage } from '../../src/server/storage/fs-storage'
import { readUploadFilename, registerRawUpload } from '../../src/server/storage/raw-body'
import { type ObjectStorage, tenantKey } from '../../src/server/storage/storage'
import { receiveUpload } from '../../src/server/storage/upload'

export interface StorageDriverResult {
  uploadMbPerS: number
  downloadMbPerS: number
  /** Highest RSS during the upload and download, above RSS just before (MB). */
  rssGrowthMb: number
}

export interface StorageResult {
  fileMb: number
  fs: StorageDriverResult
  s3: StorageDriverResult | null
}

const MB = 1024 * 1024
const HOSPITAL = randomUUID()

/** A PDF header and random bytes (incompressible), written in 1 MB chunks. */
async function makeFile(path: string, bytes: number): Promise<void> {
  const out = createWriteStream(path)
  out.write('%PDF-1.7\n')
  let left = bytes - 9
  while (left > 0) {
    const chunk = randomBytes(Math.min(MB, left))
    left -= chunk.length
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()))
  }
  await new Promise<void>((resolve, reject) =>
    out.end((e?: Error | null) => (e ? reject(e) : resolve())),
  )
}

/** Samples RSS every 20 ms; stop() gives the highest seen. */
function rssPeak(): { stop: () => number } {
  let peak = process.memoryUsage.rss()
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 20)
  return {
    stop: () => {
      clearInterval(timer)
      return Math.max(peak, process.memoryUsage.rss())
    },
  }
}

function post(
  port: number,
  path: string,
  file: string,
  name: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: {
          'content-type': 'application/octet-stream',
          'x-filename': encodeURIComponent(name),
        },
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (body += c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      },
    )
    req.on('error', reject)
    createReadStream(file).on('error', reject).pipe(req)
  })
}

function download(port: number, path: string): Promise<{ bytes: number; sha256: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path }, (res) => {
      const hash = createHash('sha256')
      let bytes = 0
      const sink = new Writable({
        write(chunk: Buffer, _e, callback) {
          bytes += chunk.length
          hash.update(chunk)
          callback()
        },
      })
      pipeline(res, sink).then(() => resolve({ bytes, sha256: hash.digest('hex') }), reject)
    })
      .on('error', reject)
      .end()
  })
}

async function benchDriver(
  storage: ObjectStorage,
  file: string,
  bytes: number,
  sha: string,
): Promise<StorageDriverResult> {
  const app = Fastify({ logger: false })
  registerErrorHandler(app)
  const saved = new Map<string, { filename: string; contentType: string; size: number }>()
  await app.register(async (scope) => {
    registerRawUpload(scope)
    scope.post('/upload', async (req) => {
      const id = randomUUID()
      const file = await receiveUpload({
        storage,
        key: tenantKey(HOSPITAL, 'bench', id),
        body: req.body as Readable,
        filename: readUploadFilename(req),
        maxBytes: 50 * MB,
        allowed: ['pdf'],
      })
      saved.set(id, file)
      return { id, ...file }
    })
    scope.get('/files/:id', async (req, reply) => {
      const { id } = req.params as { id: string }
      const file = saved.get(id)!
      return sendStoredFile(reply, { storage, key: tenantKey(HOSPITAL, 'bench', id), ...file })
    })
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = (app.server.address() as { port: number }).port
  try {
    // Warm-up: code paths compiled, buffers and sockets allocated once.
    const small = `${file}.small`
    await makeFile(small, 2 * MB)
    for (let i = 0; i < 2; i++) {
      const { body } = await post(port, '/upload', small, 'warm.pdf')
      await download(port, `/files/${(JSON.parse(body) as { id: string }).id}`)
    }
    rmSync(small)
    ;(globalThis as { gc?: () => void }).gc?.()
    const before = process.memoryUsage.rss()
    const peak = rssPeak()
    let t0 = performance.now()
    const up = await post(port, '/upload', file, 'Discharge summary.pdf')
    const upMs = performance.now() - t0
    if (up.status !== 200) throw new Error(`upload answered ${up.status}: ${up.body}`)
    const { id, sha256 } = JSON.parse(up.body) as { id: string; sha256: string }
    if (sha256 !== sha) throw new Error('the stored file differs from the one sent')
    t0 = performance.now()
    const down = await download(port, `/files/${id}`)
    const downMs = performance.now() - t0
    const growth = (peak.stop() - before) / MB
    if (down.bytes !== bytes || down.sha256 !== sha)
      throw new Error('the download differs from the upload')
    for (const id of saved.keys()) await storage.delete(tenantKey(HOSPITAL, 'bench', id))
    return {
      uploadMbPerS: bytes / MB / (upMs / 1000),
      downloadMbPerS: bytes / MB / (downMs / 1000),
      rssGrowthMb: growth,
    }
  } finally {
    await app.close()
  }
}

async function s3Storage(): Promise<{ storage: ObjectStorage; close: () => Promise<void> } | null> {
  try {
    const { startFakeS3 } = await import('../../tests/support/fakes/s3')
    const { createS3Storage } = await import('../../src/server/storage/s3-storage')
    const fake = await startFakeS3('arogya-bench')
    return { storage: await createS3Storage(fake.settings), close: fake.close }
  } catch {
    return null
  }
}

export async function benchStorage(log: (line: string) => void): Promise<StorageResult> {
  const fileMb = Number(process.env.BENCH_STORAGE_MB ?? 50)
  const bytes = fileMb * MB
  const dir = mkdtempSync(join(tmpdir(), 'arogya-bench-storage-'))
  try {
    const file = join(dir, 'attachment.pdf')
    await makeFile(file, bytes)
    const sha = createHash('sha256')
    await pipeline(createReadStream(file), sha)
    const digest = sha.digest('hex')
    const line = (name: string, r: StorageDriverResult, goal: string) =>
      log(
        `  ${name}: upload ${r.uploadMbPerS.toFixed(0)} MB/s, download ${r.downloadMbPerS.toFixed(0)} MB/s, RSS +${r.rssGrowthMb.toFixed(1)} MB${goal}`,
      )
    log(`  a ${fileMb} MB file through receiveUpload and sendStoredFile over HTTP (127.0.0.1)`)
    const fs = await benchDriver(createFsStorage(join(dir, 'uploads')), file, bytes, digest)
    line('filesystem', fs, ' (goal < 20 MB)')
    let s3: StorageDriverResult | null = null
    const fake = await s3Storage()
    if (fake) {
      try {
        s3 = await benchDriver(fake.storage, file, bytes, digest)
        line('S3 (s3rver, same process)', s3, '')
      } finally {
        await fake.close()
      }
    } else {
      log('  S3: skipped (s3rver not installed)')
    }
    return { fileMb, fs, s3 }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** BENCH-SUMMARY's figures for this part (under `growth`, issue 28). */
export function storageSummary(r: StorageResult) {
  const one = (d: StorageDriverResult) => ({
    upload_mb_s: Math.round(d.uploadMbPerS),
    download_mb_s: Math.round(d.downloadMbPerS),
    rss_growth_mb: Number(d.rssGrowthMb.toFixed(1)),
  })
  return {
    attachment_mb: r.fileMb,
    attachment_fs: one(r.fs),
    attachment_fs_rss_ok: r.fs.rssGrowthMb < 20,
    ...(r.s3 ? { attachment_s3: one(r.s3) } : {}),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('== Storage (issue 28) ==')
  benchStorage((line) => console.log(line))
    .then((r) => console.log(`storage: ${JSON.stringify(storageSummary(r))}`))
    .catch((error: unknown) => {
      console.error(error)
      process.exitCode = 1
    })
}
