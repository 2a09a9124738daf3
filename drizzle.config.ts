import { readdirSync } from 'node:fs'
import { defineConfig } from 'drizzle-kit'

const dir = './src/server/db/schema'

export default defineConfig({
  dialect: 'postgresql',
  // The schema files, not the tests beside them (drizzle-kit would load those too).
  schema: readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => `${dir}/${f}`),
  out: './drizzle',
})
