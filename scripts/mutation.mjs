// npm run test:mutation [-- <group> ...] [-- --force]
//
// Runs Stryker (stryker.config.mjs) over each mutation-testing group of stryker/groups.mjs, one
// group at a time, then prints one table: group, mutants, killed, survived, no coverage,
// timeout, score. Exits 1 when a group scores under 85 % (or its run failed).
// --force     re-run every mutant, not only those changed since the last run (incremental)
// --list      print the groups and exit
// --ignore-static  leave out static mutants (code run while modules load or an app is built in
//             a beforeAll: each runs every test of the group); they are reported as ignored
// --no-verify  keep Stryker's Survived and NoCoverage verdicts (by default each is checked by
//             hand: the mutant written into a copy of the project, the group's tests run on it;
//             scripts/mutation-verify.mjs says why)
// --report   print the table from the group's last report (no Stryker run, no hand check)
// --mutate <file>[,<file>...]  only these of the group's files (same tests); the report goes to
//             reports/mutation/<group>/part-<file names>/, and its table row says "part"
// Environment: MUTATION_CONCURRENCY (test runners, default 1), TEST_DATABASE_URL (PostgreSQL
// for the integration tests of every group; groups marked `postgres` need it).
// Not part of CI (.ci/run): a full run takes tens of minutes on two cores.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { groupOrder, groups, MIN_SCORE } from '../stryker/groups.mjs'
import { linkShared, sameSource, verifyByHand } from './mutation-verify.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const force = args.includes('--force')
const ignoreStatic = args.includes('--ignore-static')
const reportOnly = args.includes('--report')
const noVerify = reportOnly || args.includes('--no-verify')
// --mutate's value: a narrowed run of one group (e.g. the files a long run did not reach).
const mutateAt = args.indexOf('--mutate')
const only = mutateAt === -1 ? undefined : args[mutateAt + 1]
if (mutateAt !== -1 && (!only || only.startsWith('--'))) {
  console.error('--mutate needs a comma-separated list of files')
  process.exit(2)
}
const named = args.filter((a, i) => !a.startsWith('--') && (mutateAt === -1 || i !== mutateAt + 1))

if (args.includes('--list')) {
  for (const name of groupOrder) console.log(`${name.padEnd(16)} ${groups[name].description}`)
  for (const name of Object.keys(groups).filter((n) => !groupOrder.includes(n)))
    console.log(`${name.padEnd(16)} ${groups[name].description} (only when named)`)
  process.exit(0)
}
const unknown = named.filter((n) => !groups[n])
if (unknown.length > 0) {
  console.error(`Unknown group ${unknown.join(', ')}; groups: ${groupOrder.join(', ')}`)
  process.exit(2)
}
const selected = named.length > 0 ? named : groupOrder
if (only && selected.length !== 1) {
  console.error(
    '--mutate narrows one group: name it (npm run test:mutation -- <group> --mutate <files>)',
  )
  process.exit(2)
}
/** Where a group's reports go: its folder, or part-<files>/ inside it for a --mutate run. */
const partName = only
  ? `part-${only
      .split(',')
      .map((f) => f.replace(/^.*\//, '').replace(/\.[^.]*$/, ''))
      .join('+')}`
  : undefined
const reportsOf = (name) => join('reports/mutation', name, ...(partName ? [partName] : []))

/**
 * Counts of one group's report (mutation-testing-report-schema JSON). Stryker's own score:
 * detected (killed + timeout) over valid mutants (all but compile and runtime errors and
 * ignored ones); no-coverage mutants count as undetected.
 */
function countReport(report) {
  const c = { mutants: 0, killed: 0, survived: 0, noCoverage: 0, timeout: 0, ignored: 0, errors: 0 }
  for (const [name, file] of Object.entries(report.files)) {
    // An incremental report keeps files that are no longer mutated (deleted since).
    if (!existsSync(join(root, name))) continue
    for (const m of file.mutants) {
      c.mutants++
      if (m.status === 'Killed') c.killed++
      else if (m.status === 'Survived') c.survived++
      else if (m.status === 'NoCoverage') c.noCoverage++
      else if (m.status === 'Timeout') c.timeout++
      else if (m.status === 'Ignored') c.ignored++
      else c.errors++
    }
  }
  const valid = c.killed + c.survived + c.noCoverage + c.timeout
  c.score = valid === 0 ? 100 : ((c.killed + c.timeout) * 100) / valid
  return c
}

/** Survived and no-coverage mutants, one line each (file:line mutator: replacement). */
function survivors(report) {
  const lines = []
  for (const [file, { mutants }] of Object.entries(report.files)) {
    if (!existsSync(join(root, file))) continue
    for (const m of mutants) {
      if (m.status !== 'Survived' && m.status !== 'NoCoverage') continue
      const r = (m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 70)
      // Unchecked (--no-verify): Stryker's verdict alone, which may be wrong (mutation-verify.mjs).
      const unmeasured = m.verifiedByHand ? ' (checked by hand)' : ' (Stryker only)'
      lines.push(
        `  ${file}:${m.location.start.line} ${m.mutatorName} [${m.status}${unmeasured}] ${r}`,
      )
    }
  }
  return lines
}

/**
 * The mutants Stryker left alive whose file is unchanged since the run: Survived, and
 * NoCoverage (its per-test coverage loses whole test files on Vitest 4.1), checked by hand.
 */
function candidatesOf(report) {
  return Object.entries(report.files).flatMap(([file, { mutants }]) =>
    sameSource(root, file, report)
      ? mutants
          .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
          .map((m) => ({ file, m }))
      : [],
  )
}

/** Writes the hand-checked verdicts into the group's report (and its incremental file). */
function verify(name, report) {
  const candidates = candidatesOf(report)
  if (candidates.length === 0) return report
  const changed = verifyByHand({ root, name, report, candidates })
  writeFileSync(join(root, reportsOf(name), 'mutation.json'), JSON.stringify(report))
  const incrementalFile = join(root, reportsOf(name), 'incremental.json')
  if (existsSync(incrementalFile)) {
    const verdicts = new Map(candidates.map(({ file, m }) => [keyOf(file, m), m.status]))
    const incremental = JSON.parse(readFileSync(incrementalFile, 'utf8'))
    for (const [file, { mutants }] of Object.entries(incremental.files))
      for (const m of mutants) m.status = verdicts.get(keyOf(file, m)) ?? m.status
    writeFileSync(incrementalFile, JSON.stringify(incremental))
  }
  console.log(`${name}: checking by hand changed ${changed} verdict(s)`)
  return report
}

const keyOf = (file, m) =>
  `${file}|${m.location.start.line}:${m.location.start.column}|${m.mutatorName}|${m.replacement}`

const rows = []
let failed = false
for (const name of selected) {
  const group = groups[name]
  if (group.postgres && !process.env.TEST_DATABASE_URL) {
    console.error(`\n${name}: needs TEST_DATABASE_URL (PostgreSQL); skipped`)
    rows.push({ name, error: 'needs TEST_DATABASE_URL' })
    failed = true
    continue
  }
  console.log(`\n=== mutation group ${name}: ${group.description} ===`)
  // Stryker's incremental report keeps the results of files a group no longer mutates, even
  // with --force: when what the group mutates changed, start again from a full run. New or
  // changed test files need no such reset: Stryker re-runs the mutants they cover.
  const dir = join(root, reportsOf(name))
  const definition = JSON.stringify({
    mutate: only ? only.split(',') : group.mutate,
    ignorers: group.ignorers ?? [],
  })
  const definitionFile = join(dir, 'group.json')
  if (existsSync(definitionFile) && readFileSync(definitionFile, 'utf8') !== definition) {
    rmSync(join(dir, 'incremental.json'), { force: true })
  }
  mkdirSync(dir, { recursive: true })
  writeFileSync(definitionFile, definition)
  // Stryker's sandboxes are <tempDirName>/sandbox-*: the contracts' ../shared goes beside them.
  const sandboxes = join(tmpdir(), 'arogya-stryker', name)
  mkdirSync(sandboxes, { recursive: true })
  linkShared(root, sandboxes)
  const started = Date.now()
  const run = reportOnly
    ? { status: 0 }
    : spawnSync(
        process.execPath,
        [
          join(root, 'node_modules/@stryker-mutator/core/bin/stryker.js'),
          'run',
          'stryker.config.mjs',
          ...(force ? ['--force'] : []),
          ...(only ? ['--mutate', only] : []),
          ...(ignoreStatic ? ['--ignoreStatic'] : []),
        ],
        {
          cwd: root,
          stdio: 'inherit',
          env: {
            ...process.env,
            MUTATION_GROUP: name,
            ...(only ? { MUTATION_REPORT_DIR: reportsOf(name) } : {}),
          },
        },
      )
  const seconds = Math.round((Date.now() - started) / 1000)
  const reportFile = join(root, reportsOf(name), 'mutation.json')
  if (run.status !== 0 || !existsSync(reportFile)) {
    rows.push({ name, error: `stryker exited ${run.status ?? run.signal}`, seconds })
    failed = true
    continue
  }
  let report = JSON.parse(readFileSync(reportFile, 'utf8'))
  if (!noVerify) report = verify(name, report)
  const counts = countReport(report)
  const label = `${name}${only ? ' (part)' : ''}${ignoreStatic ? ' (static ignored)' : ''}`
  rows.push({ name: label, ...counts, seconds, survivors: survivors(report) })
  if (counts.score < MIN_SCORE) failed = true
}

const header = ['group', 'mutants', 'killed', 'survived', 'no coverage', 'timeout', 'score', 'time']
const table = rows.map((r) =>
  r.error
    ? [r.name, r.error, '', '', '', '', '', r.seconds === undefined ? '' : `${r.seconds} s`]
    : [
        r.name,
        String(r.mutants - r.ignored - r.errors),
        String(r.killed),
        String(r.survived),
        String(r.noCoverage),
        String(r.timeout),
        `${r.score.toFixed(2)} %${r.score < MIN_SCORE ? ' (under 85)' : ''}`,
        `${r.seconds} s`,
      ],
)
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)))
const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`
const out = [
  '',
  `Mutation score by group (${new Date().toISOString().slice(0, 10)}, commit ${gitHead()}; at least ${MIN_SCORE} % each)`,
  ...(only ? [`Only ${only}`] : []),
  line(header),
  `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
  ...table.map(line),
]
for (const r of rows) {
  if (r.survivors && r.survivors.length > 0) out.push('', `${r.name}: not killed`, ...r.survivors)
}
out.push('', 'HTML reports: reports/mutation/<group>/index.html')
console.log(out.join('\n'))
mkdirSync(join(root, 'reports/mutation'), { recursive: true })
writeFileSync(
  join(root, 'reports/mutation', partName ? `summary-${name0()}-${partName}.txt` : 'summary.txt'),
  `${out.join('\n')}\n`,
)
process.exit(failed ? 1 : 0)

function name0() {
  return selected[0]
}

function gitHead() {
  const r = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' })
  return r.status === 0 ? r.stdout.trim() : 'unknown'
}
