// The server under test: the bundled production server (npm run build) of a checkout,
// started as its own process the way `npm start` runs it, timed until /readyz answers.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { DEMO_PASSWORD, config } from './config'

export const AUTH_SECRET = 'bench-secret-bench-secret-bench-secret-0123456789'
/** Production on PostgreSQL needs a shared key for hospitals' secrets (32 bytes, base64). */
export const SECRETS_KEY = Buffer.alloc(32, 7).toString('base64')

function newest(dir: string): number {
  let latest = 0
  if (!existsSync(dir)) return latest
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }
  return latest
}

/** When the checkout's packages were last installed: the server bundle includes them. */
function installedAt(root: string): number {
  const file = join(root, 'node_modules/.package-lock.json')
  return existsSync(file) ? statSync(file).mtimeMs : 0
}

function stale(built: string, sources: number): boolean {
  return !existsSync(built) || statSync(built).mtimeMs < sources
}

/** npm run build:client / build:server in the checkout when missing or older than src. */
export function ensureBuilt(root: string): void {
  const shared = newest(join(root, 'src/shared'))
  const steps: [string, boolean][] = [
    [
      'build:client',
      stale(
        join(root, 'dist/client/index.html'),
        Math.max(shared, newest(join(root, 'src/client'))),
      ),
    ],
    [
      'build:server',
      stale(
        join(root, 'dist/server/index.mjs'),
        Math.max(shared, newest(join(root, 'src/server')), installedAt(root)),
      ),
    ],
  ]
  for (const [script, needed] of steps) {
    if (!needed) continue
    console.log(`  npm run ${script} in ${root}`)
    const result = spawnSync('npm', ['run', script], { cwd: root, stdio: 'ignore' })
    if (result.status !== 0) throw new Error(`bench: npm run ${script} failed in ${root}`)
  }
}

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (!address || typeof address === 'string') throw new Error('bench: no free port')
  return address.port
}

export interface Server {
  url: string
  pid: number
  child: ChildProcess
  /** From spawn to the first 200 from /readyz. */
  readyMs: number
  stop: () => Promise<void>
}

export interface ServerOptions {
  /** PostgreSQL URL; embedded PGlite in dataDir without it. */
  databaseUrl?: string
  dataDir: string
  /** Another program than the built server (node arguments, given the port); with IPC. */
  command?: (port: number) => string[]
  /** More environment for the server (e.g. META_GRAPH_URL of a fake Graph API). */
  env?: Record<string, string>
}

/**
 * Starts `node dist/server/index.mjs` of the benched checkout with a clean environment
 * (no BASE_URL or DATABASE_URL from the caller's shell) and waits for /readyz.
 */
export async function startServer(options: ServerOptions): Promise<Server> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'production',
    SEED_DEMO: 'true',
    DEMO_PASSWORD,
    BASE_URL: url,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: options.dataDir,
    BETTER_AUTH_SECRET: AUTH_SECRET,
    SECRETS_KEY,
    LOG_LEVEL: config.logLevel,
    LOG_FORMAT: 'json',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  }
  const started = performance.now()
  // The built server with the node options scripts/start.mjs gives it (decision 017).
  const child = options.command
    ? spawn(process.execPath, options.command(port), {
        env,
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      })
    : spawn(
        process.execPath,
        ['--enable-source-maps', '--max-old-space-size=1024', 'dist/server/index.mjs'],
        {
          cwd: config.target,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  let gone = false
  void exited.then(() => (gone = true))
  for (;;) {
    if (gone) throw new Error(`bench: server exited before it was ready:\n${output}`)
    if (performance.now() - started > 180_000) {
      child.kill('SIGKILL')
      throw new Error(`bench: server not ready after 180 s:\n${output}`)
    }
    const ok = await fetch(`${url}/readyz`)
      .then((r) => r.status === 200)
      .catch(() => false)
    if (ok) break
    await new Promise((r) => setTimeout(r, 10))
  }
  const readyMs = performance.now() - started
  return {
    url,
    pid: child.pid!,
    child,
    readyMs,
    stop: async () => {
      if (gone) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
      await exited
      clearTimeout(timer)
    },
  }
}

/**
 * Restarts on the existing database: three stop/start rounds, the last server kept running.
 * Returns it with the median time to /readyz (one restart moves with other work on the machine).
 */
export async function restarted(
  options: ServerOptions,
): Promise<{ server: Server; restartMs: number; all: number[] }> {
  const all: number[] = []
  let server = await startServer(options)
  all.push(server.readyMs)
  for (let i = 0; i < 2; i++) {
    await server.stop()
    server = await startServer(options)
    all.push(server.readyMs)
  }
  const sorted = [...all].sort((a, b) => a - b)
  return { server, restartMs: sorted[1]!, all }
}

/** Resident memory of a process in MB (VmRSS). */
export function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)
  return line ? Number(line[1]) / 1024 : NaN
}

/** CPU time (user + system) a process has used, in ms (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return 0 // the process has ended
  }
}

/** Signs in over HTTP like the browser and returns the Cookie header to send. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email, password }),
  })
  if (!res.ok) throw new Error(`bench: sign-in failed: ${res.status} ${await res.text()}`)
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  if (!cookie) throw new Error('bench: sign-in set no cookie')
  return cookie
}
