import Fastify from 'fastify'
import { PRIVATE_UMASK, prepareDataDir } from './data-dir'
import { openDatabase } from './db/client'
import { loadEnv } from './env'
import { loggerOptions } from './http/logging'
import { registerAllJobs } from './jobs/all-jobs'
import { messagingJobOptionsFromEnv } from './modules/messaging/send-job'
import { Worker } from './jobs/worker'
import { loadSecretsKeys } from './secrets/keys'
import { installSecretsKeys } from './secrets/secrets'

// npm run worker: the job worker alone (no HTTP), against DATABASE_URL. Run as many as needed
// beside the web instances (JOBS_WORKER=false on those to keep jobs off them).
process.umask(PRIVATE_UMASK)
const env = loadEnv()
const metaGraph = { baseUrl: env.META_GRAPH_URL, version: env.META_GRAPH_VERSION }
if (!env.DATABASE_URL) {
  console.error(
    '\nnpm run worker needs DATABASE_URL (PostgreSQL). The embedded database belongs to one\n' +
      'process: with it, npm start runs the jobs itself.',
  )
  process.exit(1)
}
prepareDataDir(env.DATA_DIR)
installSecretsKeys(
  loadSecretsKeys({
    given: env.SECRETS_KEY,
    dataDir: env.DATA_DIR,
    mayGenerate: env.NODE_ENV !== 'production',
  }),
)
const database = await openDatabase({
  databaseUrl: env.DATABASE_URL,
  migrationUrl: env.DATABASE_MIGRATION_URL,
})
// The server's logger settings (redaction, safe errors), without an HTTP server.
const { log } = Fastify({ logger: loggerOptions(env.LOG_LEVEL, undefined, env.LOG_FORMAT) })
registerAllJobs({ metaGraph, messaging: messagingJobOptionsFromEnv(env) })
const worker = new Worker({
  database,
  concurrency: env.JOBS_CONCURRENCY,
  perHospitalRunning: env.JOBS_PER_HOSPITAL_RUNNING,
  directUrl: env.DATABASE_DIRECT_URL,
  log,
})
await worker.start()
log.info({ worker: worker.id, concurrency: env.JOBS_CONCURRENCY }, 'job worker running')

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  log.info({}, `${signal}: finishing running jobs, then stopping`)
  await worker.stop(10_000)
  await database.close()
  process.exit(0)
}
process.once('SIGINT', () => void shutdown('SIGINT'))
process.once('SIGTERM', () => void shutdown('SIGTERM'))
