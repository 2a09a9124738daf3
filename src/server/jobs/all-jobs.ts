import type { GraphConfig } from '../integrations/meta/graph'
import { registerBackupSchedules } from '../modules/backups/backups.routes'
import { registerAppointmentJobs } from '../modules/appointments/reminder-job'
import { registerCallJobs } from '../modules/calls/call-jobs'
import { RECORDING_PRUNE_JOB, registerRecordingJobs } from '../modules/calls/recording-jobs'
import {
  OVERDUE_JOB,
  OVERDUE_SWEEP_JOB,
  overdueJob,
  overdueSweepJob,
} from '../modules/billing/overdue-job'
import { registerDataExportJob } from '../modules/data-export/data-export.routes'
import { EXPORT_FILES_PRUNE_JOB, pruneAllExports } from '../modules/data-export/export-files'
import { registerLeadImportJob } from '../modules/leads/import.routes'
import { IMPORT_FILES_PRUNE_JOB, pruneImportFilesJob } from '../modules/leads/leads.import-prune'
import { registerMessagingJobs, type MessagingJobOptions } from '../modules/messaging/send-job'
import { registerMetaJobs } from '../modules/meta/meta-jobs'
import { registerVoiceWebhookSchedules } from '../modules/voice-webhooks/voice-webhook-jobs'
import { registerHandler } from './registry'
import { schedule } from './schedule'
import { pruneFinished } from './store'

/**
 * Every job handler and schedule of the app, registered once per process by index.ts (npm
 * start) and worker.ts (npm run worker) alike, so that any instance can run any job. A feature
 * adds its registerHandler/schedule lines here.
 */
let registered = false

export function registerAllJobs(options: {
  metaGraph: GraphConfig
  /** Provider URLs, callback base URL and the per-hospital send rate (messagingJobOptionsFromEnv). */
  messaging?: MessagingJobOptions | undefined
}): void {
  // Meta lead fetches (webhook deliveries): in a worker-only process too.
  registerMetaJobs(options.metaGraph)
  // Message sends and sandbox deliveries (issue 25; idempotent).
  if (options.messaging) registerMessagingJobs(options.messaging)
  // CSV imports of leads (idempotent: buildApp registers it too).
  registerLeadImportJob()
  // Settings → Data exports (issue 27; idempotent: buildApp registers it too).
  registerDataExportJob()
  // Appointment reminders (issue 26; idempotent: buildApp registers them too).
  registerAppointmentJobs()
  // Voice calls: the sandbox's simulated progress, unplaced calls settled (issue 41; idempotent).
  registerCallJobs()
  // Call recordings copied into storage (issue 41; idempotent: buildApp registers them too).
  registerRecordingJobs()
  // Voice callbacks confirmed with the provider, and lost callbacks reconciled (issue 41).
  registerVoiceWebhookSchedules()
  // Backups: runs, restores, the minute tick that starts due configurations, retention (issue 29).
  registerBackupSchedules()
  if (registered) return
  registered = true
  // Finished jobs are kept a week (done) or a month (dead), then deleted.
  registerHandler('jobs.prune', async (_job, ctx) => ({
    deleted: await pruneFinished(ctx.db, 7, 30),
  }))
  schedule('jobs.prune', { everyMs: 3_600_000 })
  // Every hospital's old import files (uploads of finished imports, month-old reports), daily.
  registerHandler(IMPORT_FILES_PRUNE_JOB, pruneImportFilesJob)
  schedule(IMPORT_FILES_PRUNE_JOB, { dailyAt: '03:00', timeZone: 'Asia/Kolkata' })
  // Exports (Settings → Data) are kept 48 hours for download, then removed, daily.
  registerHandler(EXPORT_FILES_PRUNE_JOB, () => pruneAllExports())
  schedule(EXPORT_FILES_PRUNE_JOB, { dailyAt: '03:30', timeZone: 'Asia/Kolkata' })
  // Call recordings older than RECORDING_RETENTION_DAYS are deleted, daily (issue 41).
  schedule(RECORDING_PRUNE_JOB, { dailyAt: '04:00', timeZone: 'Asia/Kolkata' })
  // Overdue invoices: an hourly sweep enqueues each hospital's daily run after its own midnight.
  registerHandler(OVERDUE_JOB, overdueJob)
  registerHandler(OVERDUE_SWEEP_JOB, overdueSweepJob)
  schedule(OVERDUE_SWEEP_JOB, { everyMs: 3_600_000 })
}
