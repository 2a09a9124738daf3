import { join } from 'node:path'
import { buildApp } from './app'
import { PRIVATE_UMASK, prepareDataDir } from './data-dir'
import { openDatabase } from './db/client'
import { demoLogins, seedDemo } from './db/seed/demo'
import { DemoSeedConflict } from './db/seed/demo-state'
import { listSnapshots, takeSnapshot } from './db/snapshots'
import { isDatabaseUnavailable } from './db/unavailable'
import { loadEnv } from './env'
import { providerUrlsFromEnv } from './integrations/messaging/registry'
import { listenLines } from './http/listen-address'
import { registerAllJobs } from './jobs/all-jobs'
import { voiceOptionsFromEnv } from './modules/calls/voice-registry'
import { messagingJobOptionsFromEnv } from './modules/messaging/send-job'
import { Worker } from './jobs/worker'
import { projectRoot } from './project-root'
import { loadAuthSecret } from './secret'
import { loadSecretsKeys } from './secrets/keys'
import { installSecretsKeys } from './secrets/secrets'
import { getStorage } from './storage/storage'

// Everything the server writes (database files, secrets, outbox) is for its own user only.
process.umask(PRIVATE_UMASK)
const env = loadEnv()
prepareDataDir(env.DATA_DIR)
// Hospitals' secrets: SECRETS_KEY, or a key generated into DATA_DIR, except in production on
// PostgreSQL where every instance must share one key (docs/decisions/015).
installSecretsKeys(
  loadSecretsKeys({
    given: env.SECRETS_KEY,
    dataDir: env.DATA_DIR,
    mayGenerate: !(env.NODE_ENV === 'production' && env.DATABASE_URL),
  }),
)

if (env.SEED_DEMO_IN_PRODUCTION) {
  const bar = '!'.repeat(78)
  console.warn(
    `\n${bar}\n!! SEED_DEMO=true with NODE_ENV=production: demo accounts with the published\n` +
      `!! password are being created. Anyone who reads the README can sign in.\n` +
      `!! Unset SEED_DEMO and remove the demo hospitals before real use.\n${bar}\n`,
  )
}

const snapshotDir = env.SNAPSHOT_DIR ?? `${env.DATA_DIR.replace(/\/+$/, '')}-snapshots`
const openOptions = {
  databaseUrl: env.DATABASE_URL,
  migrationUrl: env.DATABASE_MIGRATION_URL,
  dataDir: env.DATABASE_URL ? undefined : env.DATA_DIR,
}
const database = await openWhenReachable().catch((error: unknown) => {
  if (env.DATABASE_URL) {
    if (!isDatabaseUnavailable(error)) throw error
    console.error(
      `\nPostgreSQL at ${serverOf(env.DATABASE_URL)} is not reachable (${error instanceof Error ? error.message : String(error)}).\n` +
        'Check DATABASE_URL and that the server (or PgBouncer) is running, then start again.',
    )
    process.exit(1)
  }
  const last = listSnapshots(snapshotDir).at(-1)
  console.error(
    `\nThe embedded database in ${env.DATA_DIR} could not be opened: ${error instanceof Error ? error.message : String(error)}\n` +
      (last
        ? `Restore the last snapshot with:  npm run db:restore -- ${last}\n(the damaged folder is kept beside it)`
        : `No snapshot was found in ${snapshotDir}.`),
  )
  process.exit(1)
})
/**
 * PostgreSQL that is not up yet (a container starting beside this one, a failover) is waited
 * for, with a line each try, for about a minute; the embedded database opens at once.
 */
async function openWhenReachable() {
  const tries = env.DATABASE_URL ? 30 : 1
  for (let attempt = 1; ; attempt++) {
    try {
      return await openDatabase(openOptions)
    } catch (error) {
      if (attempt >= tries || !isDatabaseUnavailable(error)) throw error
      console.warn(
        `Waiting for PostgreSQL at ${serverOf(env.DATABASE_URL ?? '')} (try ${attempt} of ${tries})`,
      )
      await new Promise((resolve) => setTimeout(resolve, 2_000))
    }
  }
}

/** host:port/database of a connection URL, never its user or password. */
function serverOf(url: string): string {
  try {
    const u = new URL(url)
    return `${u.host}${u.pathname}`
  } catch {
    return 'DATABASE_URL'
  }
}

const metaGraph = { baseUrl: env.META_GRAPH_URL, version: env.META_GRAPH_VERSION }
const { app, auth, drain, notifications } = await buildApp({
  metaGraph,
  messagingProviders: providerUrlsFromEnv(env),
  voice: voiceOptionsFromEnv(env),
  metaWebhookChangesPerMinute: env.META_WEBHOOK_CHANGES_PER_MINUTE,
  database,
  authSecret: loadAuthSecret(env.BETTER_AUTH_SECRET, env.DATA_DIR),
  baseURL: env.BASE_URL,
  session: { absoluteHours: env.SESSION_HOURS, idleMinutes: env.SESSION_IDLE_MINUTES },
  databaseDirectUrl: env.DATABASE_DIRECT_URL,
  clientDir: join(projectRoot, 'dist/client'),
  logLevel: env.LOG_LEVEL,
  logFormat: env.LOG_FORMAT,
  trustProxy: env.TRUST_PROXY,
  smtpUrl: env.SMTP_URL,
  mailFrom: env.MAIL_FROM,
  // Outside production, sandbox emails are also files to open (verification links).
  devOutboxDir:
    env.NODE_ENV !== 'production' && !env.SMTP_URL ? join(env.DATA_DIR, 'outbox') : undefined,
  // Production without SMTP_URL refuses invitations and activations rather than keep their links.
  requireMailDelivery: env.NODE_ENV === 'production',
  // Booking codes in the Sandbox Outbox, for admins of a development or demo server only.
  revealSandboxCodes: env.NODE_ENV !== 'production' || env.SEED_DEMO,
})

// Revocations must reach this instance at once (decision 022): say so loudly when they cannot.
if (env.DATABASE_DIRECT_URL && notifications() !== 'live') {
  const bar = '!'.repeat(78)
  console.warn(
    `\n${bar}\n!! DATABASE_DIRECT_URL does not deliver notifications (is it PgBouncer in\n` +
      `!! transaction mode?): this instance's own NOTIFY did not come back on it.\n` +
      `!! Sessions revoked on another instance stay usable here for up to 1 s, and\n` +
      `!! /readyz reports "degraded". Point it at PostgreSQL itself (port 5432, or a\n` +
      `!! session-mode pooler).\n${bar}\n`,
  )
}

if (env.SEED_DEMO) {
  // One transaction under an advisory lock: complete, or repaired, or refused with a message.
  try {
    const onSeeding = () => app.log.info('Adding the demo data')
    const storage = getStorage()
    if (await seedDemo(database.db, auth, env.DEMO_PASSWORD, { onSeeding, storage })) {
      app.log.info('Seeded demo data')
    }
  } catch (error) {
    if (!(error instanceof DemoSeedConflict)) throw error
    console.error(`\n${error.message}`)
    await database.close()
    process.exit(1)
  }
}

// Jobs (docs/decisions/014): this instance runs them too unless JOBS_WORKER=false.
registerAllJobs({ metaGraph, messaging: messagingJobOptionsFromEnv(env) })
const worker = env.JOBS_WORKER
  ? new Worker({
      database,
      concurrency: env.JOBS_CONCURRENCY,
      perHospitalRunning: env.JOBS_PER_HOSPITAL_RUNNING,
      directUrl: env.DATABASE_DIRECT_URL,
      log: app.log,
    })
  : undefined
await worker?.start()

/** Embedded database: a snapshot a day and one at each clean shutdown (db/snapshots.ts). */
async function snapshot() {
  try {
    const path = await takeSnapshot(database, snapshotDir, env.SNAPSHOT_KEEP)
    app.log.info(`snapshot written: ${path}`)
  } catch (error) {
    app.log.error({ err: error }, 'snapshot failed')
  }
}
const daily = setInterval(() => void (database.dump ? snapshot() : undefined), 24 * 3600 * 1000)
daily.unref()

/** In-flight requests get this long to finish after SIGTERM before the database closes. */
const DRAIN_MS = 10_000

/**
 * SIGTERM/SIGINT: /readyz turns 503, the server stops accepting connections and lets
 * in-flight requests finish (up to DRAIN_MS), then the database closes. Every write that was
 * acknowledged has committed by then.
 */
let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  app.log.info(`${signal}: finishing in-flight requests, then stopping`)
  drain()
  clearInterval(daily)
  // The worker claims nothing more and lets running jobs finish, alongside the requests.
  const jobsStopped = worker?.stop(DRAIN_MS)
  const closed = app.close().then(() => 'closed' as const)
  const late = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), DRAIN_MS).unref())
  if ((await Promise.race([closed, late])) === 'late') {
    app.log.warn(`requests still running after ${DRAIN_MS / 1000} s; stopping anyway`)
  }
  await jobsStopped
  if (database.dump) await snapshot()
  await database.close()
  process.exit(0)
}
process.once('SIGINT', () => void shutdown('SIGINT'))
process.once('SIGTERM', () => void shutdown('SIGTERM'))

try {
  await app.listen({ port: env.PORT, host: env.HOST })
} catch (error) {
  if ((error as { code?: unknown }).code !== 'EADDRINUSE') throw error
  console.error(
    `\nPort ${env.PORT} is already in use. Stop the other server or set PORT=<another port>.`,
  )
  await worker?.stop()
  await database.close()
  process.exit(1)
}
console.log(`\n${listenLines(env.HOST, env.PORT).join('\n')}`)
console.log(
  env.DATABASE_URL
    ? 'Database: PostgreSQL (production mode: with its default fsync, committed data survives a power cut).'
    : `Database: embedded PGlite in ${env.DATA_DIR} (for one clinic, a trial or a laptop: committed data survives a crash of this process, not a power cut or OS crash; use PostgreSQL for production).`,
)
if (env.SEED_DEMO) {
  console.log(`Demo log-ins (password: ${env.DEMO_PASSWORD}):`)
  for (const email of demoLogins()) console.log(`  ${email}`)
  console.log('  (the super admin sets up two-factor at first sign-in)')
}
if (!env.SMTP_URL && env.NODE_ENV === 'production') {
  console.warn(
    'WARNING: email is not configured (no SMTP_URL): invitations, trial activations and password resets are refused until it is set; other emails wait in the sandbox outbox, links masked.',
  )
} else if (!env.SMTP_URL) {
  console.log(
    `Emails are not sent (no SMTP_URL): they wait in the sandbox outbox (links masked) and, whole, in ${join(env.DATA_DIR, 'outbox')}.`,
  )
}
