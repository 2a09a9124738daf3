// Prints the JavaScript each entry route downloads (gzip, and brotli as served), from Vite's
// build manifest. Fails the build when '/' signed out is over its budget. --quiet (npm start):
// only a route over its budget is printed.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

const dir = 'dist/client'
const manifest = JSON.parse(readFileSync(join(dir, '.vite/manifest.json'), 'utf8'))

function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen
  seen.add(key)
  for (const dep of manifest[key]?.imports ?? []) closure(dep, seen)
  return seen
}

function jsBytes(keys) {
  let raw = 0
  let gz = 0
  let br = 0
  const files = new Set([...keys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js')))
  for (const file of files) {
    const buf = readFileSync(join(dir, file))
    raw += buf.length
    gz += gzipSync(buf, { level: 9 }).length
    // Brotli as the server sends it (scripts/precompress.mjs); small files are sent as they are.
    const brFile = join(dir, `${file}.br`)
    br += existsSync(brFile) ? readFileSync(brFile).length : buf.length
  }
  return { raw, gz, br }
}

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)
const find = (part) => Object.keys(manifest).find((k) => k.includes(part))
// main.tsx starts the marketing app for a signed-out visitor on a marketing page, else the full app.
const routes = {
  '/ (signed out)': ['marketing-app.tsx', 'features/marketing/landing-page.tsx'],
  '/pricing (signed out)': ['marketing-app.tsx', 'features/marketing/pricing-page.tsx'],
  '/add-ons (signed out)': ['marketing-app.tsx', 'features/marketing/add-ons-page.tsx'],
  '/login': ['app.tsx', 'public-routes.tsx', 'features/auth/login-page.tsx'],
  '/patients (signed in)': ['app.tsx', 'staff-app.tsx', 'features/patients/patients-page.tsx'],
  '/dashboard (signed in)': ['app.tsx', 'staff-app.tsx', 'features/leads/leads-page.tsx'],
  '/ (signed in)': ['app.tsx', 'staff-app.tsx', 'features/dashboard/home-page.tsx'],
  '/settings (signed in)': ['app.tsx', 'staff-app.tsx', 'features/settings/settings-page.tsx'],
}
// Chunks loaded later, counted beyond what the route they open on has already loaded.
const onDemand = {
  'Schedule Demo form (on first open)': [
    'features/marketing/components/demo-request-dialog.tsx',
    '/ (signed out)',
  ],
  'Lead charts with recharts (lazy)': [
    'features/leads/charts/lead-charts.tsx',
    '/dashboard (signed in)',
  ],
  'Command palette with cmdk (on first Ctrl/⌘+K)': [
    'components/command-palette/command-palette.tsx',
    '/patients (signed in)',
  ],
}
function routeKeys(route) {
  const keys = new Set(closure(entry))
  for (const part of routes[route]) {
    const key = find(part)
    if (key) closure(key, keys)
  }
  return keys
}
const budgets = { '/ (signed out)': 90 * 1024 }
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
const quiet = process.argv.includes('--quiet')
const log = (line, over = false) => {
  if (!quiet || over) console.log(line)
}
log('\nJavaScript per route (entry + route chunks and their imports):')
for (const route of Object.keys(routes)) {
  const { raw, gz, br } = jsBytes(routeKeys(route))
  const budget = budgets[route]
  const verdict = budget
    ? gz <= budget
      ? `  within the ${kb(budget)} gzip budget`
      : `  OVER the ${kb(budget)} gzip budget`
    : ''
  log(
    `  ${route.padEnd(24)} ${kb(gz).padStart(9)} gzip ${kb(br).padStart(9)} brotli  (${kb(raw)} raw)${verdict}`,
    Boolean(budget && gz > budget),
  )
  if (budget && gz > budget) process.exitCode = 1
}
for (const [what, [part, route]] of Object.entries(onDemand)) {
  const key = find(part)
  if (!key) continue
  const base = routeKeys(route)
  const extra = new Set([...closure(key)].filter((k) => !base.has(k)))
  const { raw, gz, br } = jsBytes(extra)
  log(`  + ${what}: ${kb(gz)} gzip, ${kb(br)} brotli (${kb(raw)} raw)`)
}
