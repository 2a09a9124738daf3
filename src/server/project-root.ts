import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The folder that holds package.json, found from this module's own location, so paths to
 * drizzle/ and dist/client/ are right both from src/server (tsx) and from the bundled
 * dist/server/index.mjs.
 */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'drizzle'))) return dir
    if (dirname(dir) === dir) throw new Error(`No project root above ${from}`)
  }
}

export const projectRoot = findProjectRoot(dirname(fileURLToPath(import.meta.url)))
