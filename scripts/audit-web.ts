// npm run audit:web: Lighthouse (mobile emulation, Debian's Chromium) and axe on the signed-out
// pages, the demo hospital's public booking page (issue 26) among them, and on the signed-in
// staff pages (issue 27: /, /dashboard, /patients, /settings as the demo hospital's admin). Prints the four Lighthouse category scores per page (median of RUNS runs by
// performance) and every axe violation; exits non-zero below the target or on a violation.
//
//   AUDIT_URL=http://host:port   audit a running server instead of starting one
//   RUNS=3                       Lighthouse runs per page
//   AUDIT_ONLY=public|staff      audit only the signed-out or only the signed-in pages
//   AUDIT_SAVE_DIR=dir           also write each run's Lighthouse report (JSON) there
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { AxeBuilder } from '@axe-core/playwright'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { type Browser, chromium, type Page } from 'playwright-core'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
/** The first demo hospital's booking page (the demo seed turns it on). */
const BOOKING = '/book/sanjeevani-multispeciality-hospital-pune'
const PAGES = ['/', '/pricing', '/add-ons', BOOKING]
/** Signed in as the demo hospital's admin (issue 27's targets: performance 90, the rest 95). */
const STAFF_PAGES = ['/', '/dashboard', '/patients', '/settings']
const STAFF_EMAIL = process.env.AUDIT_STAFF_EMAIL ?? 'admin@sanjeevani.demo'
const STAFF_PASSWORD = process.env.DEMO_PASSWORD ?? 'arogya-demo-2026'
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
const TARGET = 95
const STAFF_PERFORMANCE_TARGET = 90
const ONLY = process.env.AUDIT_ONLY // 'public' or 'staff'
const RUNS = Math.max(1, Number(process.env.RUNS ?? 3))

interface Server {
  base: string
  stop: () => Promise<void>
}

async function waitFor(url: string, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const start = Date.now()
  while (Date.now() - start < timeoutMs) {
    if (child && child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`)
}

/** The production server (building the client if stale) on a fresh database with the demo. */
async function startServer(): Promise<Server> {
  if (process.env.AUDIT_URL)
    return { base: process.env.AUDIT_URL.replace(/\/$/, ''), stop: async () => {} }
  const port = Number(process.env.AUDIT_PORT ?? 5187)
  const dataDir = mkdtempSync(join(tmpdir(), 'arogya-audit-'))
  const base = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      BASE_URL: base,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true, // its own process group: start.mjs runs the server as a child
  })
  await waitFor(`${base}/robots.txt`, 180_000, child)
  return {
    base,
    stop: async () => {
      if (child.pid && child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        process.kill(-child.pid, 'SIGTERM')
        await exited
      }
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

interface LighthouseRow {
  page: string
  scores: Record<(typeof CATEGORIES)[number], number>
  metrics: string
  failing: string[]
}

/** The demo admin's session cookie (the sign-in route answers with Set-Cookie). */
async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: STAFF_EMAIL, password: STAFF_PASSWORD }),
  })
  if (!res.ok) throw new Error(`sign-in as ${STAFF_EMAIL} answered ${res.status}`)
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  if (!cookie) throw new Error('sign-in set no cookie')
  return cookie
}

async function runLighthouse(
  base: string,
  pages: string[],
  cookie?: string,
): Promise<LighthouseRow[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', ...FLAGS],
  })
  const rows: LighthouseRow[] = []
  try {
    for (const page of pages) {
      const runs: LighthouseRow[] = []
      for (let i = 0; i < RUNS; i++) {
        const result = await lighthouse(`${base}${page}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: [...CATEGORIES],
          ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
        })
        if (!result) throw new Error(`Lighthouse returned nothing for ${page}`)
        const { lhr } = result
        if (process.env.AUDIT_SAVE_DIR) {
          mkdirSync(process.env.AUDIT_SAVE_DIR, { recursive: true })
          const name = `${cookie ? 'staff' : 'public'}${page.replace(/[^a-z0-9]+/gi, '-')}-${i}.json`
          writeFileSync(join(process.env.AUDIT_SAVE_DIR, name), JSON.stringify(lhr))
        }
        const scores = Object.fromEntries(
          CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
        ) as LighthouseRow['scores']
        const audit = (id: string) => lhr.audits[id]?.displayValue ?? '?'
        const scriptBytes =
          (
            lhr.audits['resource-summary']?.details as
              { items?: { resourceType: string; transferSize: number }[] } | undefined
          )?.items?.find((item) => item.resourceType === 'script')?.transferSize ?? 0
        const metrics = `FCP ${audit('first-contentful-paint')}, LCP ${audit('largest-contentful-paint')}, TBT ${audit('total-blocking-time')}, CLS ${audit('cumulative-layout-shift')}, JS transferred ${(scriptBytes / 1024).toFixed(1)} KB`
        const failing = CATEGORIES.flatMap((c) =>
          (lhr.categories[c]?.auditRefs ?? [])
            .filter((ref) => ref.weight > 0)
            .map((ref) => lhr.audits[ref.id])
            .filter((a) => a && a.score !== null && a.score < 0.9)
            .map((a) => `${c}: ${a?.title} (${a?.displayValue ?? a?.score})`),
        )
        runs.push({ page, scores, metrics, failing })
      }
      runs.sort((a, b) => a.scores.performance - b.scores.performance)
      const median = runs[Math.floor(runs.length / 2)]
      if (median) rows.push(median)
    }
  } finally {
    chrome.kill()
  }
  return rows
}

interface AxeRow {
  what: string
  violations: string[]
}

async function axe(page: Page, what: string): Promise<AxeRow> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze()
  return {
    what,
    violations: result.violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}; ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    ),
  }
}

async function runAxe(base: string): Promise<AxeRow[]> {
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS })
  const rows: AxeRow[] = []
  try {
    for (const width of [360, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 800 } })
      const page = await context.newPage()
      for (const path of PAGES) {
        await page.goto(`${base}${path}`, { waitUntil: 'networkidle' })
        rows.push(await axe(page, `${path} at ${width} px`))
      }
      await page.goto(`${base}/`, { waitUntil: 'networkidle' })
      await page.getByRole('button', { name: 'About Lead Management' }).focus()
      await page.getByRole('tooltip').waitFor()
      rows.push(await axe(page, `/ at ${width} px, help tooltip open`))
      await page.getByRole('button', { name: 'Schedule Demo' }).first().click()
      await page.getByRole('dialog').waitFor()
      await page.getByRole('button', { name: 'Request Demo' }).click()
      await page.getByText('Please enter your name').waitFor()
      rows.push(await axe(page, `/ at ${width} px, demo form with errors`))
      await context.close()
    }
  } finally {
    await browser.close()
  }
  return rows
}

const server = await startServer()
let failed = false
try {
  console.log(
    `\nAuditing ${server.base} with ${CHROMIUM} on ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB`,
  )
  console.log(
    `Lighthouse ${RUNS > 1 ? `(median of ${RUNS} runs by performance) ` : ''}mobile emulation, simulated throttling:\n`,
  )
  const header = `  ${'page'.padEnd(14)}${CATEGORIES.map((c) => c.padStart(16)).join('')}`
  const print = (rows: LighthouseRow[], performanceTarget: number, label: string) => {
    for (const row of rows) {
      console.log(
        `  ${`${row.page}${label}`.padEnd(14)}${CATEGORIES.map((c) => String(row.scores[c]).padStart(16)).join('')}`,
      )
      console.log(`  ${''.padEnd(14)}${row.metrics}`)
      for (const f of row.failing) console.log(`  ${''.padEnd(14)}below 0.9: ${f}`)
      const below = CATEGORIES.some((c) =>
        c === 'performance' ? row.scores[c] < performanceTarget : row.scores[c] < TARGET,
      )
      if (below) failed = true
    }
  }
  console.log(header)
  if (ONLY !== 'staff') print(await runLighthouse(server.base, PAGES), TARGET, '')
  if (ONLY !== 'public') {
    const cookie = await signIn(server.base)
    print(
      await runLighthouse(server.base, STAFF_PAGES, cookie),
      STAFF_PERFORMANCE_TARGET,
      ' (staff)',
    )
  }
  if (ONLY !== 'staff') {
    console.log(`\naxe (WCAG 2.2 A/AA and best practices):\n`)
    for (const row of await runAxe(server.base)) {
      console.log(`  ${row.what.padEnd(42)} ${row.violations.length} violations`)
      for (const v of row.violations) console.log(`      ${v}`)
      if (row.violations.length) failed = true
    }
  }
  console.log(
    failed
      ? `\nBelow target (${TARGET}+ in every category, staff pages' performance ${STAFF_PERFORMANCE_TARGET}+, 0 axe violations).`
      : `\nAll pages on target (${TARGET}+; staff pages' performance ${STAFF_PERFORMANCE_TARGET}+) with 0 axe violations.`,
  )
} finally {
  await server.stop()
}
process.exitCode = failed ? 1 : 0
