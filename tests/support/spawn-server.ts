import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'

/**
 * The real server and the db scripts as child processes, for kill -9 tests
 * (tests/integration/faults*.api.test.ts). They are bundled once per test file (as `npm start`
 * runs the server), so each of the many starts takes about a second instead of compiling
 * TypeScript again. The bundles sit under node_modules so their imports resolve as usual.
 */
export interface Bundles {
  server: string
  toPostgres: string
  restore: string
  remove: () => void
}

export async function bundleServer(): Promise<Bundles> {
  const dir = join('node_modules/.cache', `arogya-faults-${process.pid}-${Date.now().toString(36)}`)
  await build({
    entryPoints: {
      server: 'src/server/index.ts',
      'db-to-postgres': 'scripts/db-to-postgres.ts',
      'db-restore': 'scripts/db-restore.ts',
    },
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  })
  return {
    server: join(dir, 'server.mjs'),
    toPostgres: join(dir, 'db-to-postgres.mjs'),
    restore: join(dir, 'db-restore.mjs'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A temp folder (and its default snapshot folder) that cleanup() removes. */
export function tempDirs() {
  const made: string[] = []
  return {
    make: (prefix: string) => {
      const dir = mkdtempSync(join(tmpdir(), `arogya-fault-${prefix}-`))
      made.push(dir, `${dir}-snapshots`)
      return dir
    },
    cleanup: () => {
      for (const dir of made) rmSync(dir, { recursive: true, force: true, maxRetries: 5 })
    },
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(),
      )
    })
  })
}

export interface Proc {
  child: ChildProcess
  exited: Promise<number | null>
  output: () => string
}

const running = new Set<ChildProcess>()

/** kill -9 whatever is still running (a test that failed or timed out half-way). */
export function killLeftovers(): void {
  for (const child of running) child.kill('SIGKILL')
}

export function run(args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, args, {
    // Vitest puts Vite's BASE_URL ('/') into process.env; the server must not read it.
    env: { ...process.env, BASE_URL: '', NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()))
  running.add(child)
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child)
      resolve(code)
    }),
  )
  return { child, exited, output: () => output }
}

export interface Server extends Proc {
  base: string
}

export async function startServer(bundle: string, env: Record<string, string>): Promise<Server> {
  const port = await freePort()
  const proc = run([bundle], { ...env, PORT: String(port), HOST: '127.0.0.1' })
  return { ...proc, base: `http://127.0.0.1:${port}` }
}

/** Resolves when /readyz answers 200; fails when the server exits first or takes too long. */
export async function ready(server: Server, ms = 40_000): Promise<void> {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (server.child.exitCode !== null) {
      throw new Error(`server exited ${server.child.exitCode}:\n${server.output()}`)
    }
    const ok = await fetch(`${server.base}/readyz`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return
    await sleep(100)
  }
  throw new Error(`server not ready after ${ms} ms:\n${server.output()}`)
}

/** Polls `seen` every few ms; when it holds, waits `delay` ms and kills -9. */
export async function killWhen(
  proc: Proc,
  seen: () => boolean | Promise<boolean>,
  delay: number,
): Promise<void> {
  const until = Date.now() + 40_000
  while (!(await seen())) {
    if (proc.child.exitCode !== null || Date.now() > until) {
      throw new Error(`the moment to kill never came:\n${proc.output()}`)
    }
    await sleep(3)
  }
  if (delay) await sleep(delay)
  proc.child.kill('SIGKILL')
  await proc.exited
}

/** SIGTERM; resolves with the exit code. */
export async function stopServer(server: Server): Promise<number | null> {
  server.child.kill('SIGTERM')
  return server.exited
}
