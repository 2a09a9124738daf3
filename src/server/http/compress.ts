import * as zlib from 'node:zlib'
import compress from '@fastify/compress'
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify'

/**
 * Response compression (docs/decisions/012). Measured on a 30-row patient page (20 KB of
 * JSON): gzip level 1 costs a third of brotli quality 4's CPU (83 against 219 µs on this
 * 2-vCPU machine) for 12 % more bytes (4.6 against 4.1 KB), so a body made per request goes
 * out as gzip 1 whenever the client accepts it; brotli 4 only for a client that takes
 * brotli and not gzip. Bodies under 1 KB save less than a packet and are sent as they are.
 * Built assets are compressed once at build time (brotli 11) and not here.
 */
export const COMPRESSION = { threshold: 1024, gzipLevel: 1, brotliQuality: 4 } as const

const zlibOptions = { level: COMPRESSION.gzipLevel }
const brotliOptions = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: COMPRESSION.brotliQuality },
}

type Compressor = (body: Buffer) => Buffer

/** In the order this server prefers them when a client accepts several equally. */
const compressors: Record<string, Compressor> = {
  gzip: (body) => zlib.gzipSync(body, zlibOptions),
  br: (body) => zlib.brotliCompressSync(body, brotliOptions),
  deflate: (body) => zlib.deflateSync(body, zlibOptions),
}

/** The server's order of preference among equally acceptable encodings. */
export const ENCODINGS: readonly string[] = [...Object.keys(compressors), 'identity']

/**
 * The encoding to answer with for an Accept-Encoding header: the highest q-value wins (q=0 means "not this one"), ties go to the server's order, `*` and
 * `x-gzip` mean gzip, unknown codings are ignored. `identity`, or null when nothing offered is
 * acceptable (or no header): the body goes uncompressed.
 */
export function chooseEncoding(header: string | undefined): string | null {
  if (header === undefined) return null
  let best: string | null = null
  let bestQ = 0
  let bestRank = Infinity
  for (const part of header.toLowerCase().split(',')) {
    const [rawToken = '', ...params] = part.split(';')
    let token = rawToken.trim()
    if (token === '*' || token === 'x-gzip') token = 'gzip'
    const rank = ENCODINGS.indexOf(token)
    if (rank === -1) continue
    let q = 1
    for (const param of params) {
      const [name = '', value = ''] = param.split('=')
      if (name.trim() === 'q') q = Number.parseFloat(value.trim()) || 0
    }
    if (q <= 0) continue
    if (q > bestQ || (q === bestQ && rank < bestRank)) {
      best = token
      bestQ = q
      bestRank = rank
    }
  }
  return best
}

/** Browsers send a handful of distinct headers; the choice for each is remembered. */
const chosen = new Map<string, string | null>()
const CHOSEN_MAX = 256

function encodingFor(header: string | undefined): string | null {
  if (header === undefined) return null
  let encoding = chosen.get(header)
  if (encoding === undefined) {
    encoding = chooseEncoding(header)
    // Headers come from clients: a bounded memo, emptied when full.
    if (chosen.size >= CHOSEN_MAX) chosen.clear()
    chosen.set(header, encoding)
  }
  return encoding
}

/** @fastify/compress's default test of a compressible Content-Type. */
const COMPRESSIBLE_TYPE =
  /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)text(?:;|$)|(?:\+|\/)xml(?:;|$)|octet-stream(?:;|$)/u

/**
 * gzip or zlib (deflate) data by its header (RFC 1952, RFC 1950), as @fastify/compress tests
 * it: such bodies are left to the plugin, which passes them through.
 */
function looksCompressed(body: Buffer): boolean {
  if (body.length > 2 && body[0] === 0x1f && body[1] === 0x8b && body[2] === 0x08) return true
  if (body.length < 2) return false
  const cmf = body[0]!
  return (cmf & 0x0f) === 0x08 && (cmf & 0x80) === 0 && ((cmf << 8) + body[1]!) % 31 === 0
}

/** Adds accept-encoding to Vary the way @fastify/compress does. */
function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary')
  if (vary === undefined) {
    void reply.header('vary', 'accept-encoding')
    return
  }
  const values = (Array.isArray(vary) ? vary : [vary]).map(String)
  if (!values.some((v) => v.includes('accept-encoding'))) {
    void reply.header('vary', values.concat('accept-encoding').join(', '))
  }
}

/**
 * The encoding this buffered body is compressed with here, or null to leave it to
 * @fastify/compress (streams, types it looks up in mime-db, bodies already compressed)
 * or to send it as it is (too small, nothing acceptable, partial content, not asked).
 */
function encodingToUse(
  req: FastifyRequest,
  reply: FastifyReply,
  payload: string | Buffer,
): string | null {
  // The not-found handler's answers are not a route's: the plugin never compressed them.
  if (req.is404) return null
  const current = reply.getHeader('content-encoding')
  if (current !== undefined && current !== 'identity') return null
  if (req.headers['x-no-compression'] !== undefined) return null
  if (reply.statusCode === 206 || reply.getHeader('content-range') !== undefined) return null
  const type = reply.getHeader('content-type') ?? 'application/json'
  if (typeof type !== 'string' || !COMPRESSIBLE_TYPE.test(type)) return null
  const encoding = encodingFor(req.headers['accept-encoding'])
  if (encoding === null || encoding === 'identity') return null
  if (Buffer.byteLength(payload) < COMPRESSION.threshold) return null
  return encoding
}

/**
 * Buffered bodies (JSON, HTML, text) are compressed synchronously here: @fastify/compress
 * streams anything over its sync limit (8 KB on two cores) through a zlib stream, whose
 * set-up, chunked writes and flushes cost about ten times the codec itself (decision 012).
 * Same choices as the plugin: encoding from Accept-Encoding, threshold, levels, Vary,
 * Content-Length of the compressed body; whatever this hook leaves goes on to the plugin.
 */
export const compressBufferedBody: onSendHookHandler = function (req, reply, payload, done) {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) {
    done(null, payload)
    return
  }
  const encoding = encodingToUse(req, reply, payload)
  if (encoding === null) {
    done(null, payload)
    return
  }
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload
  if (looksCompressed(body)) {
    done(null, payload)
    return
  }
  let compressed: Buffer
  try {
    compressed = compressors[encoding]!(body)
  } catch (error) {
    done(error as Error)
    return
  }
  varyOnEncoding(reply)
  void reply.header('content-encoding', encoding)
  void reply.header('content-length', compressed.length)
  done(null, compressed)
}

/**
 * Compression for every route: the synchronous hook above for buffered bodies, then
 * @fastify/compress with the same settings for streams (files, the SPA's index.html),
 * request bodies sent compressed, and anything the hook leaves. The hook is an app hook, so
 * it runs before the plugin's route hook, which then sees Content-Encoding and steps aside.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  app.addHook('onSend', compressBufferedBody)
  await app.register(compress, {
    global: true,
    encodings: Object.keys(compressors) as ('gzip' | 'br' | 'deflate')[],
    threshold: COMPRESSION.threshold,
    zlibOptions,
    brotliOptions,
  })
}
