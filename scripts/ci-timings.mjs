// Prints where CI's time went: the slowest test files of each Vitest run (from its JSON report)
// and the slowest Playwright tests (from the list reporter's "(12.3s)" endings). Used by
// .ci/run after the suites; informational only, it never fails the run.
import { existsSync, readFileSync } from 'node:fs'

const TOP = 12
const [, , ...inputs] = process.argv
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`

for (const input of inputs) {
  if (!existsSync(input)) continue
  if (input.endsWith('.json')) {
    let report
    try {
      report = JSON.parse(readFileSync(input, 'utf8'))
    } catch {
      continue
    }
    const files = (report.testResults ?? []).map((f) => ({
      name: f.name.replace(`${process.cwd()}/`, ''),
      ms: (f.endTime ?? 0) - (f.startTime ?? 0),
    }))
    const total = files.reduce((a, f) => a + f.ms, 0)
    console.log(`\n${input}: ${files.length} files, ${secs(total)} in tests; slowest:`)
    for (const f of files.sort((a, b) => b.ms - a.ms).slice(0, TOP)) {
      console.log(`  ${secs(f.ms).padStart(8)}  ${f.name}`)
    }
  } else {
    const tests = []
    for (const line of readFileSync(input, 'utf8').split('\n')) {
      const m = line.match(/›\s+(.+?)\s+\((\d+(?:\.\d+)?)(ms|s|m)\)\s*$/)
      if (m) tests.push({ name: m[1], ms: Number(m[2]) * { ms: 1, s: 1000, m: 60_000 }[m[3]] })
    }
    const total = tests.reduce((a, t) => a + t.ms, 0)
    console.log(`\n${input}: ${tests.length} tests, ${secs(total)}; slowest:`)
    for (const t of tests.sort((a, b) => b.ms - a.ms).slice(0, TOP)) {
      console.log(`  ${secs(t.ms).padStart(8)}  ${t.name}`)
    }
  }
}
