// npm run db:restore -- <snapshot.tar.gz>: starts the embedded database afresh from a snapshot
// (see src/server/db/snapshots.ts). The current DATA_DIR, if any, is moved aside, not deleted.
// Stop the server first.
import { existsSync, readFileSync, renameSync } from 'node:fs'
import { openDatabase } from '../src/server/db/client'

const snapshot = process.argv[2]
// Scripts are not the app, so this one reads its own variable (the app reads env in src/server/env.ts).
const dataDir = (process.env.DATA_DIR || './data').replace(/\/+$/, '')
if (!snapshot || !existsSync(snapshot)) {
  console.error('Usage: npm run db:restore -- <path to an arogya-*.tar.gz snapshot>')
  process.exit(2)
}
process.umask(0o077)
if (existsSync(dataDir)) {
  const aside = `${dataDir}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`
  renameSync(dataDir, aside)
  console.log(`Moved ${dataDir} aside to ${aside}`)
}
const database = await openDatabase({ dataDir, restoreFrom: readFileSync(snapshot) })
await database.close()
console.log(`Restored ${dataDir} from ${snapshot}. Start the server with npm start.`)
