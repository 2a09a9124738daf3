// CPU and bytes of each compression choice on a real page of 30 patients (the body the
// server sends), and on smaller bodies, to choose the level and the threshold.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

export interface Codec {
  name: string
  compress: (body: Buffer) => Buffer
}

const brotli = (quality: number) => (body: Buffer) =>
  brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  })

export const codecs: Codec[] = [
  { name: 'gzip 1 (API setting)', compress: (b) => gzipSync(b, { level: 1 }) },
  { name: 'gzip 6 (zlib default)', compress: (b) => gzipSync(b, { level: 6 }) },
  { name: 'brotli 4 (plugin default)', compress: brotli(4) },
  { name: 'brotli 6', compress: brotli(6) },
  { name: 'brotli 11 (max)', compress: brotli(11) },
]

export interface CodecResult {
  name: string
  inBytes: number
  outBytes: number
  /** CPU per compression, µs (process user + system time over many runs). */
  cpuUs: number
}

/** CPU per run: the least of 7 rounds of about 30 ms each (other work on the machine only adds). */
function time(codec: Codec, body: Buffer): CodecResult {
  const outBytes = codec.compress(body).length
  const cpu = (since: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since)
    return used.user + used.system
  }
  const probe = process.cpuUsage()
  for (let i = 0; i < 5; i++) codec.compress(body)
  const runs = Math.max(5, Math.min(2000, Math.round(30_000 / Math.max(1, cpu(probe) / 5))))
  let best = Infinity
  for (let round = 0; round < 7; round++) {
    const start = process.cpuUsage()
    for (let i = 0; i < runs; i++) codec.compress(body)
    best = Math.min(best, cpu(start) / runs)
  }
  return { name: codec.name, inBytes: body.length, outBytes, cpuUs: best }
}

/** Every codec on the page; gzip 1 and brotli 4 on the first 1, 3 and 10 patients of it. */
export function benchCompression(pageJson: string): { page: CodecResult[]; sizes: CodecResult[] } {
  const page = Buffer.from(pageJson)
  const rows = JSON.parse(pageJson) as unknown[]
  const sizes: CodecResult[] = []
  for (const n of [1, 3, 10]) {
    const body = Buffer.from(JSON.stringify(rows.slice(0, n)))
    for (const codec of [codecs[0]!, codecs[2]!]) sizes.push(time(codec, body))
  }
  return { page: codecs.map((c) => time(c, page)), sizes }
}
