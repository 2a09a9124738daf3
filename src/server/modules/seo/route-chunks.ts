import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

type Manifest = Record<string, { file: string; imports?: string[]; isEntry?: boolean }>

/**
 * The client modules of each marketing page as Vite's manifest names them (root: src/client):
 * for a signed-out visitor main.tsx starts the marketing app, which loads the page.
 */
const pageModules: Record<string, string[]> = {
  '/': ['marketing-app.tsx', 'features/marketing/landing-page.tsx'],
  '/pricing': ['marketing-app.tsx', 'features/marketing/pricing-page.tsx'],
  '/add-ons': ['marketing-app.tsx', 'features/marketing/add-ons-page.tsx'],
}

function closure(manifest: Manifest, key: string, seen: Set<string>): Set<string> {
  if (seen.has(key) || !manifest[key]) return seen
  seen.add(key)
  for (const dep of manifest[key].imports ?? []) closure(manifest, dep, seen)
  return seen
}

/**
 * For each marketing path, the JavaScript files its route needs beyond what the entry
 * already loads, so the HTML can preload them in parallel instead of in a waterfall.
 */
export function marketingPreloads(clientDir: string): Record<string, string[]> {
  const file = join(clientDir, '.vite/manifest.json')
  if (!existsSync(file)) return {}
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest
  const entry = Object.keys(manifest).find((k) => manifest[k]?.isEntry)
  const loaded = entry ? closure(manifest, entry, new Set()) : new Set<string>()
  const result: Record<string, string[]> = {}
  for (const [path, modules] of Object.entries(pageModules)) {
    const keys = new Set<string>()
    for (const m of modules) closure(manifest, m, keys)
    result[path] = [...keys]
      .filter((k) => !loaded.has(k))
      .flatMap((k) => (manifest[k]?.file.endsWith('.js') ? [`/${manifest[k].file}`] : []))
  }
  return result
}
