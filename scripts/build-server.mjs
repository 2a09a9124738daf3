// Bundles the server (src/server/index.ts and everything it imports from src/) into one ES
// module, so `npm start` runs plain JavaScript instead of compiling TypeScript on every start.
// node_modules stay external (PGlite loads its WASM from there).
import { build } from 'esbuild'

const started = Date.now()
await build({
  entryPoints: ['src/server/index.ts'],
  outfile: 'dist/server/index.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
})
console.log(`Built dist/server/index.mjs in ${Date.now() - started} ms`)
