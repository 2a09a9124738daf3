// Bundles the server (src/server/index.ts, everything it imports from src/ and its npm
// packages) into one ES module, so `npm start` runs plain JavaScript instead of compiling
// TypeScript on every start, and loads one file instead of resolving and compiling about
// 2,000 files of node_modules one by one (restart on an existing DATA_DIR: 2.4-3.0 s with
// packages external, 1.2-1.5 s bundled; decision 018).
// External: PGlite (it loads its WASM and data files from beside its own module), pino and its
// transports (run in worker threads that load them by name), and pg's optional native driver.
import { build } from 'esbuild'

const started = Date.now()
await build({
  entryPoints: ['src/server/index.ts'],
  outfile: 'dist/server/index.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: [
    '@electric-sql/pglite',
    '@electric-sql/pglite/*',
    'pino',
    'pino-pretty',
    'thread-stream',
    'pg-native',
    // Loaded on first use, only when S3_BUCKET is set (src/server/storage/storage.ts).
    '@aws-sdk/client-s3',
    '@aws-sdk/lib-storage',
  ],
  // CommonJS packages inside an ES module still call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  logLevel: 'warning',
})
console.log(`Built dist/server/index.mjs in ${Date.now() - started} ms`)
