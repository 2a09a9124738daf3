// Splits the Vitest files between CI's lanes by how long each took (tests/ci-durations.json,
// seconds per file from an earlier run), heaviest first onto the lane with less work so far.
// Vitest's own --shard splits by count, and the slow files (redirect walks, crash and fault
// drills) landed together, leaving one core idle for a quarter of an hour.
//   node scripts/ci-lanes.mjs <lane> <lanes> [--shared|--isolated] [pattern ...]
// prints that lane's files, one a line. A file without a recorded time counts as the median.
// Patterns (substrings, as Vitest's filters) pick a subset, e.g. the embedded-driver files of npm
// run test:embedded. --shared keeps the lane's files that may share a worker's modules (run with
// --no-isolate), --isolated the others (scripts/ci-isolated.mjs); the lane is the same either way.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ISOLATED } from './ci-isolated.mjs'

const [lane, lanes, ...rest] = process.argv.slice(2)
const group = rest[0] === '--shared' || rest[0] === '--isolated' ? rest.shift() : undefined
const patterns = rest
const index = Number(lane) - 1
const count = Number(lanes)
if (!Number.isInteger(index) || !Number.isInteger(count) || index < 0 || index >= count) {
  console.error('usage: node scripts/ci-lanes.mjs <lane> <lanes> [pattern ...]')
  process.exit(2)
}

/** Files Vitest runs (vitest.config.ts include): *.test.ts under src, tests/integration, tests/lint. */
function testFiles(dir) {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return testFiles(path)
    return entry.name.endsWith('.test.ts') ? [path] : []
  })
}

const durations = existsSync('tests/ci-durations.json')
  ? JSON.parse(readFileSync('tests/ci-durations.json', 'utf8'))
  : {}
const known = Object.values(durations).sort((a, b) => a - b)
const median = known.length ? known[Math.floor(known.length / 2)] : 5
// Loading the app in a fresh worker costs seconds before a file's first test.
const PER_FILE = 3

const files = ['src', 'tests/integration', 'tests/lint']
  .flatMap(testFiles)
  .filter((f) => patterns.length === 0 || patterns.some((p) => f.includes(p)))
  .sort()
const load = Array.from({ length: count }, () => 0)
const mine = []
for (const file of files
  .map((f) => ({ f, cost: (durations[f] ?? median) + PER_FILE }))
  .sort((a, b) => b.cost - a.cost || a.f.localeCompare(b.f))) {
  const lightest = load.indexOf(Math.min(...load))
  load[lightest] += file.cost
  if (lightest === index) mine.push(file.f)
}
const picked =
  group === undefined ? mine : mine.filter((f) => ISOLATED.includes(f) === (group === '--isolated'))
console.log(picked.sort().join('\n'))
