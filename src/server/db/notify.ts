import { randomBytes } from 'node:crypto'
import type { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import type { Database } from './client'

/**
 * LISTEN for PostgreSQL notifications (docs/decisions/010 and 022). The one way the app hears
 * NOTIFY.
 *
 * - Embedded PGlite: its own in-process listen(); always live. Notifications are delivered
 *   before the committing query's promise resolves.
 * - PostgreSQL: LISTEN needs a session connection, which a transaction-mode pooler does not
 *   give, so it runs on one dedicated connection to DATABASE_DIRECT_URL, reconnecting with
 *   back-off and pinged every second. Without a direct URL nothing is heard and callers fall
 *   back to polling or short lifetimes.
 * - Live only once a round trip is proven (issue 24 item 5): LISTEN and a ping also succeed
 *   through PgBouncer in transaction mode, where notifications then never arrive. So the
 *   listener sends its own NOTIFY (a probe payload, through the app's pool, never the
 *   listening connection, on which a pooler could hand it straight back) and is live only
 *   when it comes back; it probes again every period, half a period after each ping, and a
 *   probe not back by the next one means notifications are not delivered: not live, and a
 *   warning naming DATABASE_DIRECT_URL. Probe payloads (this instance's and other instances')
 *   never reach onNotify.
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
  /** How often the dedicated connection is checked (a silent one is replaced) and probed. */
  pingMs?: number
}

/**
 * - 'live': notifications arrive (PGlite, or this instance's own NOTIFY came back);
 * - 'connecting': no listening connection yet, or it was lost and is being replaced;
 * - 'probing': listening, the first probe not back yet;
 * - 'not-delivered': listening, but a probe did not come back (e.g. PgBouncer in transaction
 *   mode as DATABASE_DIRECT_URL);
 * - 'off': not listening at all (no DATABASE_DIRECT_URL), by configuration.
 */
export type ListenState = 'live' | 'connecting' | 'probing' | 'not-delivered' | 'off'

export interface Listening {
  close: () => Promise<void>
  state: () => ListenState
}

/** The start of every probe payload; payloads starting with it are never real events. */
export const PROBE_PREFIX = 'arogya-probe:'

/** The start of the warning when probes do not come back (tests and operators grep for it). */
export const NOT_DELIVERED_WARNING =
  'DATABASE_DIRECT_URL does not deliver notifications (is it PgBouncer in transaction mode?)'

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
    return { close: async () => undefined, state: () => 'off' }
  }
  return await listenPostgres(options, options.directUrl)
}

async function listenPglite(options: ListenOptions): Promise<Listening> {
  const client = (options.database.db as unknown as { $client: PGlite }).$client
  let state: ListenState = 'live'
  const unlisten = await client.listen(options.channel, options.onNotify)
  options.onLive(true)
  return {
    close: async () => {
      state = 'off'
      options.onLive(false)
      if (!client.closed) await unlisten().catch(() => undefined)
    },
    state: () => state,
  }
}

interface Probe {
  payload: string
  /** The NOTIFY has committed (a probe still being sent is not overdue). */
  sent: boolean
  /** It came back while a ping was in flight: proves nothing either way (see connect()). */
  inconclusive: boolean
  arrived: () => void
}

async function listenPostgres(options: ListenOptions, directUrl: string): Promise<Listening> {
  const { channel, log } = options
  const pingMs = options.pingMs ?? 1_000
  /** The first probe of a connection gets at least a second. */
  const firstProbeMs = Math.max(1_000, pingMs)
  const token = randomBytes(6).toString('hex')
  let seq = 0
  let client: pg.Client | null = null
  let closed = false
  let backoff = 250
  let retry: NodeJS.Timeout | undefined
  /** The connection whose ping is awaited (a new connection is pinged whatever the old did). */
  let pinging: pg.Client | null = null
  let probe: Probe | null = null
  let state: ListenState = 'connecting'
  /** Warned that probes do not come back, and not proven since. */
  let warned = false

  function setState(next: ListenState) {
    if (next === state) return
    const wasLive = state === 'live'
    state = next
    if (wasLive !== (next === 'live')) options.onLive(next === 'live')
  }

  function proven() {
    probe?.arrived()
    probe = null
    if (state === 'live') return
    if (warned) log.info(`${channel}: notifications arrive again`)
    warned = false
    setState('live')
  }

  function notDelivered() {
    probe = null
    setState('not-delivered')
    if (warned) return
    warned = true
    log.warn(
      { channel },
      `${NOT_DELIVERED_WARNING}: a NOTIFY on ${channel} sent by this instance did not come back. ` +
        'Until it does, this instance does not rely on notifications: a revoked session may stay ' +
        'usable here for up to 1 s, and jobs are found by polling. Point DATABASE_DIRECT_URL at ' +
        'PostgreSQL itself (or a session-mode pooler).',
    )
  }

  /** Sends a probe through the app's pool; resolves when it is back (or never). */
  function sendProbe(): Promise<void> {
    let arrived: () => void = () => undefined
    const back = new Promise<void>((resolve) => (arrived = resolve))
    const mine: Probe = {
      payload: `${PROBE_PREFIX}${token}:${++seq}`,
      sent: false,
      inconclusive: false,
      arrived,
    }
    probe = mine
    options.database.db.execute(sql`select pg_notify(${channel}, ${mine.payload})`).then(
      () => {
        mine.sent = true
      },
      (error: unknown) => {
        // The database is unreachable from the pool: nothing proves delivery now.
        if (probe !== mine) return
        probe = null
        if (state === 'live') log.warn({ err: error }, `${channel}: could not send a probe`)
        if (client) setState('not-delivered')
      },
    )
    return back
  }

  /** Every period: the last probe must be back by now; then the next one goes out. */
  function probeTick() {
    // The first probe of a connection is connect()'s to judge.
    if (!client || closed || state === 'probing') return
    if (probe) {
      if (!probe.sent) return // still waiting for the pool: its own time-out decides
      if (!probe.inconclusive) notDelivered()
    }
    void sendProbe()
  }

  function drop(c: pg.Client, error?: unknown) {
    c.removeAllListeners('notification')
    c.on('error', () => undefined)
    void c.end().catch(() => undefined)
    if (client !== c) return
    client = null
    probe = null
    setState('connecting')
    if (closed) return
    log.warn({ err: error }, `${channel}: listening connection lost; reconnecting`)
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
      application_name: `arogya-listen-${channel}`,
    })
    c.on('error', (error) => drop(c, error))
    c.on('end', () => drop(c))
    c.on('notification', (message) => {
      if (message.channel !== channel) return
      const payload = message.payload ?? ''
      if (payload.startsWith(PROBE_PREFIX)) {
        if (client !== c || !probe || payload !== probe.payload) return
        // A transaction-mode pooler hands the listening session to this connection only
        // while one of its own queries runs, and forwards a notification then, never
        // while it is idle. Only a probe heard while idle proves a session of its own.
        if (pinging === c) probe.inconclusive = true
        else proven()
        return
      }
      options.onNotify(payload)
    })
    try {
      await c.connect()
      await c.query(`LISTEN ${channel}`)
    } catch (error) {
      c.removeAllListeners('end')
      void c.end().catch(() => undefined)
      if (closed) return
      log.warn({ err: error }, `${channel}: cannot listen yet; retrying`)
      schedule()
      return
    }
    if (closed) {
      void c.end().catch(() => undefined)
      return
    }
    client = c
    backoff = 250
    setState('probing')
    // Live once the first probe is back; not delivered if it is not back in time. One that
    // came back during a ping proves nothing: sent again (three tries).
    for (let attempt = 1; attempt <= 3; attempt++) {
      const back = sendProbe()
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), firstProbeMs)
        timer.unref()
      })
      const outcome = await Promise.race([back.then(() => 'back' as const), late])
      clearTimeout(timer)
      if (outcome === 'back' || client !== c || state !== 'probing') return
      if (!probe?.inconclusive) break
    }
    notDelivered()
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
  // Probes go out half a period after pings: a pooler that lends the listening session to a
  // ping at the moment a probe commits could otherwise deliver that one probe by chance.
  let probes: NodeJS.Timeout | undefined
  const offset = setTimeout(() => {
    probes = setInterval(probeTick, pingMs)
    probes.unref()
  }, pingMs / 2)
  offset.unref()

  // The first attempt is awaited (a start is live at once when it can be); later ones are not.
  await connect()
  return {
    close: async () => {
      closed = true
      clearInterval(ping)
      clearTimeout(offset)
      clearInterval(probes)
      clearTimeout(retry)
      const c = client
      client = null
      probe = null
      setState('off')
      if (c) {
        c.removeAllListeners()
        c.on('error', () => undefined)
        await c.end().catch(() => undefined)
      }
    },
    state: () => state,
  }
}
