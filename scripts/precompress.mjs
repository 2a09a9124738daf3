// After `vite build`: writes .br (quality 11) and .gz (level 9) beside each hashed JS and CSS
// asset, which the server sends as they are (@fastify/static preCompressed) instead of
// compressing every response on the fly at a lower level.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const dir = 'dist/client/assets'
let files = 0
for (const name of readdirSync(dir)) {
  if (!/\.(js|css|svg)$/.test(name)) continue
  const buf = readFileSync(join(dir, name))
  if (buf.length < 1024) continue
  writeFileSync(
    join(dir, `${name}.br`),
    brotliCompressSync(buf, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: buf.length,
      },
    }),
  )
  writeFileSync(join(dir, `${name}.gz`), gzipSync(buf, { level: 9 }))
  files++
}
if (!process.argv.includes('--quiet'))
  console.log(`Precompressed ${files} assets (brotli 11, gzip 9).`)
