// Prints the JavaScript each entry route downloads (gzip), from Vite's build manifest.
import { readFileSync } from 'node:fs'
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
  const files = new Set([...keys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js')))
  for (const file of files) {
    const buf = readFileSync(join(dir, file))
    raw += buf.length
    gz += gzipSync(buf, { level: 9 }).length
  }
  return { raw, gz }
}

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)
const find = (part) => Object.keys(manifest).find((k) => k.includes(part))
const routes = {
  '/ (signed out)': ['features/marketing/landing-page.tsx', 'public-routes.tsx'],
  '/pricing (signed out)': ['features/marketing/pricing-page.tsx', 'public-routes.tsx'],
  '/add-ons (signed out)': ['features/marketing/add-ons-page.tsx', 'public-routes.tsx'],
  '/login': ['features/auth/login-page.tsx', 'public-routes.tsx'],
  '/patients (signed in)': ['features/patients/patients-page.tsx', 'staff-app.tsx'],
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
console.log('\nJavaScript per route (entry + route chunks and their imports):')
for (const [route, parts] of Object.entries(routes)) {
  const keys = new Set(closure(entry))
  for (const part of parts) {
    const key = find(part)
    if (key) closure(key, keys)
  }
  const { raw, gz } = jsBytes(keys)
  console.log(`  ${route.padEnd(24)} ${kb(gz).padStart(9)} gzip  (${kb(raw)} raw)`)
}
