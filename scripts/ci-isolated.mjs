// The Vitest files that need a fresh module graph of their own. CI runs every other file with
// --no-isolate: one worker loads the app's modules once for all of them instead of once a file
// (about 2 s a file, over five minutes a lane). A file belongs here when it changes state its
// module graph keeps for the next file, or reads state the first file to load a module fixes:
export const ISOLATED = [
  // process.env changed (data directories, limits, keys) for the app the file builds
  'src/shared/dates.test.ts',
  'tests/integration/backups-retention.api.test.ts',
  'tests/integration/backups.api.test.ts',
  'tests/integration/calls-recordings.api.test.ts',
  'tests/integration/data-export-delete.api.test.ts',
  'tests/integration/data-export.api.test.ts',
  'tests/integration/erasure-restore.api.test.ts',
  'tests/integration/growth-mutants-attachments.api.test.ts',
  'tests/integration/leads-import-fencing.api.test.ts',
  'tests/integration/leads-import-quotas.api.test.ts',
  'tests/integration/leads-import-report.api.test.ts',
  'tests/integration/leads-import.api.test.ts',
  'tests/integration/meta-mutants.api.test.ts',
  'tests/integration/ops-mutants-backups.api.test.ts',
  'tests/integration/settings-leads.api.test.ts',
  'tests/integration/storage-quota.api.test.ts',
  'tests/integration/storage.contract.test.ts',
  'tests/integration/support-ticket-attachments.api.test.ts',
  // the secrets keys or fake timers installed for the whole process
  'src/server/http/rate-limit-store.mutants.test.ts',
  'src/server/jobs/attempt.mutants.test.ts',
  'src/server/modules/backups/backup-crypto.test.ts',
  'src/server/secrets/secrets.mutants.test.ts',
  'src/server/secrets/secrets.test.ts',
  // module-level registries (the route catalog, the session cache, allowed origins, cost
  // tables) that the first app built in a process fills: failed when sharing a worker
  'src/server/auth/session-cache.mutants.test.ts',
  'tests/integration/hostile-json.property.test.ts',
  'tests/integration/messaging-webhooks-cost.api.test.ts',
  'tests/integration/platform.api.test.ts',
  'tests/integration/routes.api.test.ts',
  'tests/integration/security-origin.api.test.ts',
  'tests/integration/security-redirects.api.test.ts',
]
