// The mutation-testing groups (docs/decisions/024-mutation-testing.md): which security
// mechanisms each group mutates, and the only test files that run against its mutants.
//
// `mutate` takes globs, and `file.ts:from-to` line ranges where only part of a file is in scope.
// `testFiles` is the whole test selection: Stryker runs nothing else, so a group stays
// tractable on two cores. Integration tests run on PGlite unless the group says `postgres`.
// A new security mechanism gets a group here (and a line in CONTRIBUTING.md's table).

/** @typedef {{ description: string, mutate: string[], testFiles: string[], postgres?: boolean, ignorers?: string[], timeoutMS?: number }} Group */

/** @type {Record<string, Group>} */
export const groups = {
  shared: {
    description: 'request schemas, phone numbers and the permission table',
    mutate: ['src/shared/schemas/**/*.ts', 'src/shared/phone.ts', 'src/shared/permissions.ts'],
    testFiles: [
      'src/shared/schemas/*.test.ts',
      'src/shared/phone*.test.ts',
      'src/shared/permissions*.test.ts',
    ],
  },
  http: {
    description: 'same-origin guard, body/query parsing, shared rate-limit store',
    mutate: [
      'src/server/http/same-origin.ts',
      'src/server/http/parse.ts',
      'src/server/http/rate-limit-store.ts',
    ],
    testFiles: [
      'src/server/http/same-origin*.test.ts',
      'src/server/http/parse*.test.ts',
      'src/server/http/rate-limit-store*.test.ts',
    ],
  },
  'secrets-tenant': {
    description: 'per-hospital secrets (AES-256-GCM, key rotation, redaction) and withTenant',
    mutate: ['src/server/secrets/**/*.ts', 'src/server/db/tenant.ts'],
    // withTenant's production path (a pg.Pool connection of our own) exists only on
    // PostgreSQL; unit tests open PGlite directly, so both paths run.
    postgres: true,
    testFiles: [
      'src/server/secrets/*.test.ts',
      'tests/integration/tenancy.api.test.ts',
      'tests/integration/secrets-tenant-mutants.api.test.ts',
    ],
  },
  auth: {
    description: 'better-auth set-up, guards, session cache, sign-in throttle',
    mutate: ['src/server/auth/**/*.ts'],
    // Every integration file builds the app in a beforeAll, so every mutant in auth.ts's
    // better-auth options runs against all of them: few and fast ones only (auth.api,
    // routes.api, security-auth-paths.api, security-throttle.api and session-cache.api are
    // left to the unit tests of the same code).
    testFiles: [
      'src/server/auth/*.test.ts',
      'tests/integration/auth-mutants.api.test.ts',
      'tests/integration/forged-sessions.api.test.ts',
      'tests/integration/suspension.api.test.ts',
      'tests/integration/two-factor.api.test.ts',
    ],
  },
  jobs: {
    description:
      'the job queue: enqueue, claim, lease, fence, retry (on PostgreSQL: concurrent claims)',
    mutate: [
      'src/server/jobs/queue.ts',
      'src/server/jobs/store.ts',
      'src/server/jobs/claim.ts',
      'src/server/jobs/fence.ts',
      'src/server/jobs/attempt.ts',
    ],
    // On PostgreSQL two workers claim at once (SKIP LOCKED, fencing); PGlite runs one job at a
    // time. jobs-fairness.api (5,000 jobs) is left out: it would make every claim.ts mutant wait
    // for it; jobs-mutants.api pins the turns and caps with a few jobs each. jobs-mutants.api
    // runs first: it calls the queue's functions directly and fails at once, where the worker
    // tests of jobs.api wait up to 25 s for a job that a broken worker never finishes.
    // jobs-claim-mutants.api holds lane and job rows from a second connection (PostgreSQL) to
    // force claim.ts's skip-locked and waiting paths.
    postgres: true,
    testFiles: [
      'src/server/jobs/*.test.ts',
      'tests/integration/jobs-mutants.api.test.ts',
      'tests/integration/jobs-claim-mutants.api.test.ts',
      'tests/integration/jobs-tenancy.api.test.ts',
      'tests/integration/jobs-fencing.api.test.ts',
      'tests/integration/jobs.api.test.ts',
    ],
  },
  // The services group is measured in parts (below): one module or a few at a time, each
  // against the API files that exercise its look-ups. `services` is their union (every
  // *.service.ts, every part's tests): a whole run is hours on two cores.
  services: {
    description: "the *.service.ts files' cross-tenant paths (look-ups by id and hospital)",
    mutate: ['src/server/modules/**/*.service.ts'],
    // Only functions that answer 404 for another hospital's row, or find a row by its id or
    // hospital inside a hospital, are mutated; the rest of each file is ignored
    // (stryker/cross-tenant-ignorer.mjs).
    ignorers: ['cross-tenant'],
    testFiles: [], // the union of the parts' test files, filled in below
  },
  // A quick slice of `services` (not in groupOrder): the patient and lead look-ups and the
  // staff checks, against the two files written for them. It misses what only the other API
  // files kill; the services group is the measure, this one a check while writing tests.
  'services-quick': {
    description:
      'services: patients, leads and staff look-ups against tenancy and services-mutants',
    mutate: [
      'src/server/modules/patients/patients.service.ts',
      'src/server/modules/leads/leads.service.ts',
      'src/server/modules/leads/staff.service.ts',
    ],
    ignorers: ['cross-tenant'],
    testFiles: [
      'tests/integration/services-mutants.api.test.ts',
      'tests/integration/tenancy.api.test.ts',
    ],
  },
}

/**
 * The parts of `services`: each mutates one module's (or a few modules') *.service.ts files,
 * through the same cross-tenant ignorer, and runs only the API files that reach their look-ups
 * (the module's own API tests with their other-hospital cases, and its `*-mutants.api` file).
 * Every *.service.ts file with a kept function belongs to exactly one part.
 * @type {Record<string, Group>}
 */
export const servicesParts = {
  'services-patients-leads': {
    description: 'services: patients, leads, staff and the data-rights (export, erase) look-ups',
    mutate: [
      'src/server/modules/patients/*.service.ts',
      'src/server/modules/leads/*.service.ts',
      'src/server/modules/data-rights/*.service.ts',
    ],
    ignorers: ['cross-tenant'],
    testFiles: [
      'tests/integration/services-mutants.api.test.ts',
      'tests/integration/tenancy.api.test.ts',
      'tests/integration/patients.api.test.ts',
      'tests/integration/leads.api.test.ts',
      'tests/integration/patients-data-rights.api.test.ts',
    ],
  },
  'services-appointments-billing': {
    description: 'services: appointments, invoices, payments and the services catalogue',
    mutate: [
      'src/server/modules/appointments/*.service.ts',
      'src/server/modules/billing/*.service.ts',
    ],
    ignorers: ['cross-tenant'],
    testFiles: [
      'tests/integration/appointments-billing-mutants.api.test.ts',
      'tests/integration/billing-mutants.api.test.ts',
      'tests/integration/appointments.api.test.ts',
      'tests/integration/billing.api.test.ts',
      'tests/integration/billing-documents.api.test.ts',
    ],
  },
  'services-booking-settings': {
    description: 'services: public booking and the hospital and booking settings',
    mutate: [
      'src/server/modules/booking/*.service.ts',
      'src/server/modules/hospital-settings/*.service.ts',
    ],
    ignorers: ['cross-tenant'],
    testFiles: [
      'tests/integration/booking-settings-mutants.api.test.ts',
      'tests/integration/hospital-settings-booking.api.test.ts',
      'tests/integration/hospital-settings.api.test.ts',
      'tests/integration/booking.api.test.ts',
      'tests/integration/booking-holds.api.test.ts',
    ],
  },
  'services-messaging': {
    description: 'services: sending one message, bulk sends and their batches',
    mutate: [
      'src/server/modules/messaging/*.service.ts',
      'src/server/modules/messaging-events/*.service.ts',
    ],
    ignorers: ['cross-tenant'],
    testFiles: [
      'tests/integration/messaging-mutants.api.test.ts',
      'tests/integration/messaging-bulk-mutants.api.test.ts',
      'tests/integration/messaging-send-mutants.api.test.ts',
      'tests/integration/messaging-send.api.test.ts',
    ],
  },
  'services-messaging-settings': {
    description: 'services: message templates, reminders, follow-ups and the WhatsApp number',
    mutate: ['src/server/modules/messaging-settings/*.service.ts'],
    ignorers: ['cross-tenant'],
    testFiles: [
      'tests/integration/messaging-settings-templates.api.test.ts',
      'tests/integration/messaging-settings-reminders.api.test.ts',
      'tests/integration/messaging-settings.api.test.ts',
      // Resync (Twilio's Content API) and the reminder sends are exercised here.
      'tests/integration/messaging-templates-twilio.api.test.ts',
      'tests/integration/appointments-reminders.api.test.ts',
    ],
  },
  'services-webhooks-meta': {
    description: 'services: provider webhooks, consents and the Meta connection and claims',
    mutate: [
      'src/server/modules/messaging-webhooks/*.service.ts',
      'src/server/modules/meta/*.service.ts',
    ],
    ignorers: ['cross-tenant'],
    testFiles: [
      'tests/integration/webhooks-meta-mutants.api.test.ts',
      'tests/integration/meta-mutants.api.test.ts',
      'tests/integration/messaging-webhooks-consents.api.test.ts',
      'tests/integration/messaging-webhooks.api.test.ts',
      'tests/integration/messaging-webhooks-whatsapp.api.test.ts',
      'tests/integration/meta-claims.api.test.ts',
      'tests/integration/meta.api.test.ts',
      'tests/integration/meta-webhook.api.test.ts',
    ],
  },
  'services-team': {
    description: 'services: team members, invitations and accepting one, password reset',
    mutate: [
      'src/server/modules/team/*.service.ts',
      'src/server/modules/password-reset/*.service.ts',
    ],
    ignorers: ['cross-tenant'],
    testFiles: [
      'tests/integration/team-mutants.api.test.ts',
      'tests/integration/team-mutants-invitations.api.test.ts',
      'tests/integration/team.api.test.ts',
      'tests/integration/team-invitations.api.test.ts',
      'tests/integration/password-reset.api.test.ts',
    ],
  },
  'services-platform': {
    description:
      'services: platform admin (hospitals, users, onboarding, activity), session, trial, preferences',
    mutate: [
      'src/server/modules/platform/*.service.ts',
      'src/server/modules/audit/*.service.ts',
      'src/server/modules/session/*.service.ts',
      'src/server/modules/preferences/*.service.ts',
    ],
    ignorers: ['cross-tenant'],
    testFiles: [
      'tests/integration/platform-mutants.api.test.ts',
      'tests/integration/platform-mutants-session.api.test.ts',
      'tests/integration/platform-onboarding-users.api.test.ts',
      'tests/integration/platform.api.test.ts',
      'tests/integration/preferences.api.test.ts',
      'tests/integration/trial.api.test.ts',
    ],
  },
  'services-growth': {
    description: 'services: campaigns, FAQs, lead-generation requests and support tickets',
    mutate: [
      'src/server/modules/campaigns/*.service.ts',
      'src/server/modules/faqs/*.service.ts',
      'src/server/modules/lead-generation/*.service.ts',
      'src/server/modules/support-tickets/*.service.ts',
      'src/server/modules/demo-requests/*.service.ts',
    ],
    ignorers: ['cross-tenant'],
    testFiles: [
      'tests/integration/growth-mutants.api.test.ts',
      'tests/integration/growth-mutants-tickets.api.test.ts',
      'tests/integration/growth-mutants-attachments.api.test.ts',
      'tests/integration/campaigns.api.test.ts',
      'tests/integration/campaign-link-counts.api.test.ts',
      'tests/integration/faqs.api.test.ts',
      'tests/integration/lead-generation.api.test.ts',
      'tests/integration/support-tickets.api.test.ts',
      'tests/integration/support-ticket-attachments.api.test.ts',
    ],
  },
  'services-ops': {
    description:
      'services: backups, live monitoring, data export, account sessions, settings, support access',
    mutate: [
      'src/server/modules/backups/*.service.ts',
      'src/server/modules/live-monitoring/*.service.ts',
      'src/server/modules/data-export/*.service.ts',
      'src/server/modules/account-security/*.service.ts',
      'src/server/modules/settings/*.service.ts',
      'src/server/modules/support-access/*.service.ts',
      'src/server/modules/outbox/*.service.ts',
    ],
    ignorers: ['cross-tenant'],
    testFiles: [
      'tests/integration/ops-mutants.api.test.ts',
      'tests/integration/ops-mutants-backups.api.test.ts',
      'tests/integration/ops-mutants-support.api.test.ts',
      'tests/integration/backups.api.test.ts',
      'tests/integration/live-monitoring.api.test.ts',
      'tests/integration/live-monitoring-events.api.test.ts',
      'tests/integration/data-export-delete.api.test.ts',
      'tests/integration/security-settings-account.api.test.ts',
      'tests/integration/settings.api.test.ts',
      'tests/integration/support-access.api.test.ts',
    ],
  },
  'services-calls': {
    description:
      'services: voice calls (click-to-call, dispositions, staff phones) and their status callbacks',
    mutate: [
      'src/server/modules/calls/*.service.ts',
      'src/server/modules/voice-webhooks/*.service.ts',
      'src/server/modules/calls-incoming/*.service.ts',
      'src/server/modules/voice-settings/*.service.ts',
    ],
    ignorers: ['cross-tenant'],
    testFiles: [
      'tests/integration/calls-sandbox.api.test.ts',
      'tests/integration/calls-refusals.api.test.ts',
      'tests/integration/calls-progress.api.test.ts',
      'tests/integration/calls-provider.api.test.ts',
      'tests/integration/calls-report.api.test.ts',
      'tests/integration/calls-incoming.api.test.ts',
      'tests/integration/voice-settings.api.test.ts',
      'tests/integration/voice-webhooks-exotel.api.test.ts',
      'tests/integration/voice-webhooks-twilio.api.test.ts',
      'tests/integration/voice-webhooks-reconcile.api.test.ts',
    ],
  },
}
Object.assign(groups, servicesParts)
groups.services.testFiles = [
  ...new Set(Object.values(servicesParts).flatMap((part) => part.testFiles)),
]

/** The order `npm run test:mutation` runs them in. */
export const groupOrder = ['shared', 'http', 'secrets-tenant', 'auth', 'jobs', 'services']

/** The least share of mutants a group must kill. */
export const MIN_SCORE = 85
