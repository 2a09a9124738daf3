// npm run db:to-postgres -- <postgres-url>: copies the embedded database in DATA_DIR (default
// ./data) into a new, empty PostgreSQL database, all or nothing, and prints each table's row
// count and checksum, compared on both sides. Stop the server first. Then start with
// DATABASE_URL=<postgres-url>.
import { AlreadyCopiedError, moveToPostgres } from '../src/server/db/move-to-postgres'

const url = process.argv[2]
// Scripts are not the app, so this one reads its own variable (the app reads env in src/server/env.ts).
const dataDir = process.env.DATA_DIR || './data'
if (!url || !/^postgres(ql)?:\/\//.test(url)) {
  console.error('Usage: npm run db:to-postgres -- postgres://user@host:5432/new_database')
  process.exit(2)
}
const started = Date.now()
try {
  const tables = await moveToPostgres({ dataDir, targetUrl: url, log: (line) => console.log(line) })
  const rows = tables.reduce((n, t) => n + t.rows, 0)
  console.log(
    `\nCopied ${rows} rows in ${tables.length} tables from ${dataDir} in ${((Date.now() - started) / 1000).toFixed(1)} s; every count and checksum matches.`,
  )
  console.log(
    `Start the server on it with: DATABASE_URL=${url.replace(/:[^:@/]*@/, ':***@')} npm start`,
  )
} catch (error) {
  if (error instanceof AlreadyCopiedError) {
    console.log(`\nNothing to do. ${error.message}`)
    console.log(
      `Start the server on it with: DATABASE_URL=${url.replace(/:[^:@/]*@/, ':***@')} npm start`,
    )
    process.exit(0)
  }
  console.error(`\nNothing was copied: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
