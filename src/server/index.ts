import { fileURLToPath } from 'node:url'
import { buildApp } from './app'
import { openDatabase } from './db/client'
import { demoLogins, seedDemo } from './db/seed/demo'
import { loadEnv } from './env'
import { loadAuthSecret } from './secret'

const env = loadEnv()
const database = await openDatabase({
  databaseUrl: env.DATABASE_URL,
  dataDir: env.DATABASE_URL ? undefined : env.DATA_DIR,
})
const { app, auth } = await buildApp({
  database,
  authSecret: loadAuthSecret(env.BETTER_AUTH_SECRET, env.DATA_DIR),
  baseURL: env.BASE_URL,
  sessionHours: env.SESSION_HOURS,
  clientDir: fileURLToPath(new URL('../../dist/client', import.meta.url)),
  logLevel: env.LOG_LEVEL,
  trustProxy: env.TRUST_PROXY,
})

if (env.SEED_DEMO && (await seedDemo(database.db, auth, env.DEMO_PASSWORD))) {
  app.log.info('Seeded demo data')
}

const shutdown = async () => {
  await app.close()
  await database.close()
  process.exit(0)
}
process.once('SIGINT', () => void shutdown())
process.once('SIGTERM', () => void shutdown())

await app.listen({ port: env.PORT, host: env.HOST })
const where = env.DATABASE_URL ? 'PostgreSQL' : `embedded PGlite in ${env.DATA_DIR}`
console.log(`\nArogya CRM is running at http://localhost:${env.PORT} (database: ${where})`)
if (env.SEED_DEMO) {
  console.log(`Demo log-ins (password: ${env.DEMO_PASSWORD}):`)
  for (const email of demoLogins()) console.log(`  ${email}`)
}
