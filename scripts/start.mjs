// npm start: build the client when it is missing or older than its sources, then serve.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const built = 'dist/client/index.html'

function newest(dir) {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }
  return latest
}

const sources = Math.max(
  newest('src/client'),
  newest('src/shared'),
  statSync('vite.config.ts').mtimeMs,
)
if (!existsSync(built) || statSync(built).mtimeMs < sources) {
  console.log('Building the web client...')
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

const server = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/index.ts'], {
  stdio: 'inherit',
})
process.exit(server.status ?? 0)
