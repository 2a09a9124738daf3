// Stryker for one mutation-testing group (stryker/groups.mjs). Run it through
// `npm run test:mutation -- <group>` (scripts/mutation.mjs), or directly as
// `MUTATION_GROUP=<group> npx stryker run`. docs/decisions/024-mutation-testing.md says why.
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { groups } from './stryker/groups.mjs'

const name = process.env.MUTATION_GROUP ?? ''
const group = groups[name]
if (!group) {
  throw new Error(
    `MUTATION_GROUP must name a group: ${Object.keys(groups).join(', ')} (got "${name}")`,
  )
}
// A --mutate run of scripts/mutation.mjs has reports of its own.
const reportDir = process.env.MUTATION_REPORT_DIR ?? `reports/mutation/${name}`

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // The group's test files are the whole suite of this config (not Stryker's `testFiles`:
  // see stryker/vitest.config.mjs).
  vitest: { configFile: 'stryker/vitest.config.mjs', related: false },
  mutate: [...group.mutate, '!**/*.test.ts'],
  // Ignore-plugins that narrow a group to its mechanism (services: cross-tenant paths only).
  appendPlugins: ['./stryker/cross-tenant-ignorer.mjs'],
  ignorers: group.ignorers ?? [],
  coverageAnalysis: 'perTest',
  // Two shared cores: one test-runner process (the brief of issue 30 allows two at most).
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 1),
  // Only mutants whose code or covering tests changed since the last run are run again.
  // The file is git-ignored: a score for the README comes from a full run (--force).
  incremental: true,
  incrementalFile: `${reportDir}/incremental.json`,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `${reportDir}/index.html` },
  jsonReporter: { fileName: `${reportDir}/mutation.json` },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  // Sandboxes outside the work tree, so `eslint .` and `tsc` elsewhere never see them.
  tempDirName: join(tmpdir(), 'arogya-stryker', name),
  cleanTempDir: 'always',
  ignorePatterns: [
    'dist',
    'data',
    'data-snapshots',
    'test-results',
    'reports',
    '.e2e-data*',
    'docs',
  ],
  // A mutant that makes the tests loop is ended after this (the machine is shared and slow).
  timeoutMS: group.timeoutMS ?? 10_000,
  timeoutFactor: 2,
  dryRunTimeoutMinutes: 20,
  thresholds: { high: 90, low: 85, break: null },
  // Type checks would refuse many mutants before a test ran; Stryker's default leaves them
  // off (a mutant that does not compile still runs, and a test still has to catch it).
  disableTypeChecks: true,
  fileLogLevel: 'off',
  logLevel: process.env.MUTATION_LOG_LEVEL ?? 'info',
}
