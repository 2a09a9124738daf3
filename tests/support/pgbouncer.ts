import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createConnection, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const PGBOUNCER = '/usr/sbin/pgbouncer'
export const hasPgBouncer = existsSync(PGBOUNCER)

export interface PgBouncer {
  /** postgres://postgres@127.0.0.1:<port>/<database> through the pooler. */
  url: (database: string) => string
  port: number
  stop: () => Promise<void>
  /** kill -9: clients see their connections drop and new ones refused. */
  kill: () => Promise<void>
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

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/**
 * PgBouncer in transaction pooling mode in front of the local PostgreSQL (trust auth), run
 * as the postgres user (it refuses to run as root), on a free port, with its own temp folder.
 */
export async function startPgBouncer(
  upstream: URL,
  options: { port?: number } = {},
): Promise<PgBouncer> {
  const port = options.port ?? (await freePort())
  const dir = mkdtempSync(join(tmpdir(), 'arogya-pgbouncer-'))
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim())
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim())
  const ini = join(dir, 'pgbouncer.ini')
  const users = join(dir, 'users.txt')
  writeFileSync(users, '"postgres" ""\n')
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${upstream.hostname} port=${upstream.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${users}`,
      'pool_mode = transaction',
      'max_client_conn = 200',
      'default_pool_size = 8',
      // After a failed server login PgBouncer waits this long before trying again (default
      // 15 s, during which every client gets an error): tests of PostgreSQL coming back.
      'server_login_retry = 1',
      'ignore_startup_parameters = extra_float_digits,options',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  )
  for (const path of [dir, ini, users]) chownSync(path, uid, gid)
  const child: ChildProcess = spawn(PGBOUNCER, ['-u', 'postgres', ini], { stdio: 'ignore' })
  for (let i = 0; i < 100 && !(await listening(port)); i++) {
    await new Promise((r) => setTimeout(r, 50))
  }
  if (!(await listening(port))) {
    child.kill('SIGKILL')
    throw new Error('pgbouncer did not start')
  }
  const exited = new Promise((r) => child.once('exit', r))
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    await exited
    rmSync(dir, { recursive: true, force: true })
  }
  return {
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    port,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
  }
}
