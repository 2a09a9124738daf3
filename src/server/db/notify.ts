import type { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import type { Database } from './client'

/**
 * LISTEN for PostgreSQL notifications (docs/decisions/010). The one way the app hears NOTIFY.
 *
 * - Embedded PGlite: its own in-process listen(); always live. Notifications are delivered
 *   before the committing query's promise resolves.
 * - PostgreSQL: LISTEN needs a session connection, which a transaction-mode pooler does not
 *   give, so it runs on one dedicated connection to DATABASE_DIRECT_URL, reconnecting with
 *   back-off and pinged every second: live only while that connection answers. Without a
 *   direct URL nothing is heard and callers fall back to polling or short lifetimes.
 *
 * `onLive(false)` means notifications may be missed from now on; `onLive(true)` means they
 * arrive again (some may have been missed in between: callers start afresh).
 */
export interface ListenOptions {
  database: Pick<Database, 'db' | 'driver'>
  /** PostgreSQL only: a URL that reaches PostgreSQL itself (not PgBouncer in transaction mode). */
  directUrl?: string | undefined
  channel: string
  onNotify: (payload: string) => void
  onLive: (live: boolean) => void
  log: { warn: (obj: object, msg: string) => void; info: (msg: string) => void }
  /** How often the dedicated connection is checked; a silent one is replaced. */
  pingMs?: number
}

export interface Listening {
  close: () => Promise<void>
}

const CHANNEL = /^[a-z_][a-z0-9_]*$/
const MAX_BACKOFF_MS = 5_000

export async function listen(options: ListenOptions): Promise<Listening> {
  if (!CHANNEL.test(options.channel)) throw new Error(`bad channel name ${options.channel}`)
  if (options.database.driver === 'pglite') return listenPglite(options)
  if (!options.directUrl) {
    options.log.info(
      `No DATABASE_DIRECT_URL: not listening for ${options.channel}; cached sessions live at most 1 s`,
    )
    options.onLive(false)
    return { close: async () => undefined }
  }
  return await listenPostgres(options, options.directUrl)
}

async function listenPglite(options: ListenOptions): Promise<Listening> {
  const client = (options.database.db as unknown as { $client: PGlite }).$client
  const unlisten = await client.listen(options.channel, options.onNotify)
  options.onLive(true)
  return {
    close: async () => {
      options.onLive(false)
      if (!client.closed) await unlisten().catch(() => undefined)
    },
  }
}

async function listenPostgres(options: ListenOptions, directUrl: string): Promise<Listening> {
  const pingMs = options.pingMs ?? 1_000
  let client: pg.Client | null = null
  let closed = false
  let backoff = 250
  let retry: NodeJS.Timeout | undefined
  /** The connection whose ping is awaited (a new connection is pinged whatever the old did). */
  let pinging: pg.Client | null = null

  function drop(c: pg.Client, error?: unknown) {
    c.removeAllListeners('notification')
    c.on('error', () => undefined)
    void c.end().catch(() => undefined)
    if (client !== c) return
    client = null
    options.onLive(false)
    if (closed) return
    options.log.warn({ err: error }, `${options.channel}: listening connection lost; reconnecting`)
    schedule()
  }

  function schedule() {
    clearTimeout(retry)
    retry = setTimeout(() => void connect(), backoff)
    retry.unref()
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)
  }

  async function connect() {
    if (closed) return
    const c = new pg.Client({
      connectionString: directUrl,
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
      application_name: `arogya-listen-${options.channel}`,
    })
    c.on('error', (error) => drop(c, error))
    c.on('end', () => drop(c))
    c.on('notification', (message) => {
      if (message.channel === options.channel) options.onNotify(message.payload ?? '')
    })
    try {
      await c.connect()
      await c.query(`LISTEN ${options.channel}`)
    } catch (error) {
      c.removeAllListeners('end')
      void c.end().catch(() => undefined)
      if (closed) return
      options.log.warn({ err: error }, `${options.channel}: cannot listen yet; retrying`)
      schedule()
      return
    }
    if (closed) {
      void c.end().catch(() => undefined)
      return
    }
    client = c
    backoff = 250
    options.onLive(true)
  }

  /** A connection that stops answering (a dead peer without a reset) is replaced. */
  const ping = setInterval(() => {
    const c = client
    if (!c || pinging === c) return
    pinging = c
    // A query on a dead socket may never settle: the connection is replaced instead.
    const late = setTimeout(() => drop(c, new Error('no answer to ping')), pingMs)
    late.unref()
    c.query('select 1')
      .then(
        () => undefined,
        (error: unknown) => drop(c, error),
      )
      .finally(() => {
        clearTimeout(late)
        if (pinging === c) pinging = null
      })
  }, pingMs)
  ping.unref()

  // The first attempt is awaited (a start is live at once when it can be); later ones are not.
  await connect()
  return {
    close: async () => {
      closed = true
      clearInterval(ping)
      clearTimeout(retry)
      const c = client
      client = null
      options.onLive(false)
      if (c) {
        c.removeAllListeners()
        c.on('error', () => undefined)
        await c.end().catch(() => undefined)
      }
    },
  }
}
