// npm start: build the client and the server when missing or older than their sources, then
// serve the compiled server (npm run dev keeps tsx and hot reload).
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

function newest(dir) {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }
  return latest
}

const stale = (built, sources) => !existsSync(built) || statSync(built).mtimeMs < sources

// Builds are production builds whatever NODE_ENV the caller runs with (Playwright's web server
// runs with NODE_ENV=test, which made Vite bundle React's development build, over budget).
const buildEnv = { ...process.env, NODE_ENV: 'production' }

function run(args) {
  const result = spawnSync('npm', args, { stdio: 'inherit', env: buildEnv })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

function spawnOrExit(args) {
  const result = spawnSync(process.execPath, args, { stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

const shared = newest('src/shared')
if (
  stale(
    'dist/client/index.html',
    Math.max(newest('src/client'), shared, statSync('vite.config.ts').mtimeMs),
  )
) {
  // Quietly (issue 40 item 18): Vite's listing of every chunk and the size per route are
  // printed by `npm run build:client`, not at every start; warnings and a blown budget still are.
  console.log('Building the web client (npm run build:client shows the bundle listing)...')
  run(['exec', '--', 'vite', 'build', '--logLevel', 'warn'])
  spawnOrExit(['scripts/precompress.mjs', '--quiet'])
  spawnOrExit(['scripts/report-bundle.mjs', '--quiet'])
}
// The server bundle holds its npm packages too: an npm install makes it stale.
const installed = existsSync('node_modules/.package-lock.json')
  ? statSync('node_modules/.package-lock.json').mtimeMs
  : 0
if (stale('dist/server/index.mjs', Math.max(newest('src/server'), shared, installed))) {
  run(['run', 'build:server'])
}

// The old generation capped at 1 GB: V8 then grows it by at most 1.6x the live heap between
// full collections instead of 4x, which kept the server (60 to 80 MB live) under 300 MB of
// RSS (docs/decisions/017-memory.md). A --max-old-space-size in NODE_OPTIONS wins.
// scripts/bench/server.ts starts the server with the same options.
const heap = /--max-old-space-size/.test(process.env.NODE_OPTIONS ?? '')
  ? []
  : ['--max-old-space-size=1024']
const server = spawnSync(
  process.execPath,
  ['--enable-source-maps', ...heap, 'dist/server/index.mjs'],
  { stdio: 'inherit' },
)
process.exit(server.status ?? 0)
