import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// Issue 40 item 18: npm start printed Vite's 150-line chunk listing and the size per route
// whenever it built the client. The listing is shown when asked (npm run build:client) only.
describe('npm start builds the client quietly', () => {
  const start = readFileSync('scripts/start.mjs', 'utf8')

  it("runs Vite at log level warn, not npm run build:client's listing", () => {
    expect(start).not.toMatch(/'build:client'/)
    expect(start).toContain("'vite', 'build', '--logLevel', 'warn'")
    expect(start).toContain("'scripts/report-bundle.mjs', '--quiet'")
  })

  it.runIf(existsSync('dist/client/.vite/manifest.json'))(
    'the size report prints only a blown budget with --quiet',
    () => {
      const quiet = spawnSync(process.execPath, ['scripts/report-bundle.mjs', '--quiet'], {
        encoding: 'utf8',
      })
      const shown = quiet.stdout.split('\n').filter(Boolean)
      expect(shown.filter((line) => !line.includes('OVER the'))).toEqual([])
      const asked = spawnSync(process.execPath, ['scripts/report-bundle.mjs'], { encoding: 'utf8' })
      expect(asked.stdout).toContain('JavaScript per route')
    },
  )
})
