// Prototype harness (bench only): the app on an embedded database, with PGlite either on the
// event-loop thread as today (mode inline) or in a worker thread (mode worker). It answers
// the parent's 'loop' message with the event loop's delay since the last ask.
// Run: node --import tsx scripts/bench/pglite-app.ts <inline|worker> <dataDir> <port> [root]
// The app comes from the checkout at root (default this one), so the benched code is used.
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { PGlite } from '@electric-sql/pglite'
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin'
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { buildApp as BuildApp } from '../../src/server/app'
import type { AppDb, Database, schema as Schema } from '../../src/server/db/client'
import { WorkerPGlite } from './pglite-proxy'
import { AUTH_SECRET } from './server'

const [mode, dataDir, port, root = resolve(import.meta.dirname, '../..')] = process.argv.slice(2)
if ((mode !== 'inline' && mode !== 'worker') || !dataDir || !port) {
  throw new Error('usage: pglite-app.ts <inline|worker> <dataDir> <port> [root]')
}
const from = (path: string) => import(pathToFileURL(resolve(root, path)).href)
const { buildApp } = (await from('src/server/app.ts')) as { buildApp: typeof BuildApp }
const { schema } = (await from('src/server/db/client.ts')) as { schema: typeof Schema }
const client =
  mode === 'inline'
    ? await PGlite.create({ dataDir, extensions: { pg_trgm, btree_gist, btree_gin } })
    : await WorkerPGlite.open(dataDir)
const db = drizzle(client as PGlite, { schema }) as unknown as AppDb
await migrate(db as never, { migrationsFolder: resolve(root, 'drizzle') })
const database: Database = { db, driver: 'pglite', close: () => client.close() }
const baseURL = `http://127.0.0.1:${port}`
const { app } = await buildApp({ database, authSecret: AUTH_SECRET, baseURL, logLevel: 'warn' })

const delay = monitorEventLoopDelay({ resolution: 10 })
delay.enable()
process.on('message', (message) => {
  if (message !== 'loop') return
  const ms = (ns: number) => ns / 1e6
  process.send?.({
    p50: ms(delay.percentile(50)),
    p99: ms(delay.percentile(99)),
    max: ms(delay.max),
  })
  delay.reset()
})
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0))
})
await app.listen({ host: '127.0.0.1', port: Number(port) })
