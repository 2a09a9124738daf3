// The survivors of a Stryker run, checked by hand: each mutant is written into a copy of the
// project and the group's tests run in a fresh Vitest process (stryker/vitest.config.mjs, the
// group's files in the group's order, stopping at the first failure). A failing run kills the
// mutant; a run past three times the unmutated run's time is a timeout (detected, as Stryker
// counts it); a passing run is a true survivor.
//
// Why: Stryker 9.6.1's Vitest runner on Vitest 4.1 reports mutants as Survived (or NoCoverage)
// that the tests kill when the mutant is applied by hand (stryker-js issues 5928, 6073, 6192,
// 6213; docs/decisions/024). Its Killed verdicts are real; this settles the rest. It is slow
// (one full run of the group's tests per mutant), so it runs on what Stryker left alive only.
import { spawnSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'

/** Left out of the copy: installed, built, generated or local data. */
const SKIP =
  /^(node_modules|dist|data|data-snapshots|reports|test-results|\.git|\.e2e-data[^/]*)(\/|$)/

/**
 * The tests read the providers' contracts from ../shared beside the checkout
 * (tests/support/fakes/contract.ts): a copy of the checkout gets the same neighbour, or every
 * test file with a provider fake fails in its beforeAll.
 */
export function linkShared(root, besideCopy) {
  const target = join(root, '..', 'shared')
  const link = join(besideCopy, 'shared')
  if (existsSync(target) && !existsSync(link)) symlinkSync(target, link, 'dir')
}

/** Offset of a 1-based line and column in `text`. */
function offsetOf(text, { line, column }) {
  let offset = 0
  for (let l = 1; l < line; l++) offset = text.indexOf('\n', offset) + 1
  return offset + column - 1
}

/** The file's source with one mutant in place of the code it replaces. */
export function applyMutant(source, mutant) {
  const from = offsetOf(source, mutant.location.start)
  const to = offsetOf(source, mutant.location.end)
  return source.slice(0, from) + mutant.replacement + source.slice(to)
}

function runTests(dir, name, timeoutMs) {
  const started = Date.now()
  const run = spawnSync(
    process.execPath,
    [
      join(dir, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--config',
      'stryker/vitest.config.mjs',
      '--bail',
      '1',
      '--reporter',
      'dot',
    ],
    {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, MUTATION_GROUP: name },
    },
  )
  const ms = Date.now() - started
  if (run.error?.code === 'ETIMEDOUT' || run.signal === 'SIGKILL') return { verdict: 'Timeout', ms }
  return { verdict: run.status === 0 ? 'Survived' : 'Killed', ms, output: run.stdout + run.stderr }
}

/**
 * Runs each candidate mutant ({ file, m } of the report) against the group's tests in a copy of
 * the project, and writes each verdict into the mutant (status, and `verifiedByHand`).
 * Returns how many verdicts changed.
 */
export function verifyByHand({ root, name, report, candidates, log = console.log }) {
  const outer = mkdtempSync(join(tmpdir(), `arogya-mutation-verify-${name}-`))
  const dir = join(outer, 'checkout')
  try {
    cpSync(root, dir, { recursive: true, filter: (src) => !SKIP.test(relative(root, src)) })
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir')
    linkShared(root, outer)
    const baseline = runTests(dir, name, 60 * 60_000)
    if (baseline.verdict !== 'Survived') {
      log(`${name}: the group's tests fail without a mutant; nothing verified`)
      log(baseline.output?.slice(-2000) ?? '')
      return 0
    }
    const timeoutMs = Math.max(3 * baseline.ms, 60_000)
    log(
      `${name}: verifying ${candidates.length} mutant(s) by hand, ${Math.round(baseline.ms / 1000)} s a run unmutated`,
    )
    let changed = 0
    for (const [i, { file, m }] of candidates.entries()) {
      const source = report.files[file].source
      writeFileSync(join(dir, file), applyMutant(source, m))
      const { verdict, ms } = runTests(dir, name, timeoutMs)
      writeFileSync(join(dir, file), source)
      if (verdict !== m.status) changed++
      log(
        `  ${i + 1}/${candidates.length} ${file}:${m.location.start.line} ${m.mutatorName} ` +
          `${m.status} → ${verdict} (${Math.round(ms / 1000)} s)`,
      )
      m.status = verdict
      m.verifiedByHand = true
    }
    return changed
  } finally {
    rmSync(outer, { recursive: true, force: true })
  }
}

/** The unchanged source of a report's file (to check a report against the work tree). */
export function sameSource(root, file, report) {
  try {
    return readFileSync(join(root, file), 'utf8') === report.files[file].source
  } catch {
    return false
  }
}
