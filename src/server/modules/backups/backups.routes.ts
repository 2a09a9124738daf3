import type { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { uuidParam } from '../../../shared/schemas/common'
import {
  backupLogsQuery,
  createBackupConfigurationInput,
  restoreInput,
  runNowInput,
  updateBackupConfigurationInput,
} from '../../../shared/schemas/backup'
import { actingMember, requirePermission } from '../../auth/access'
import type { AppDb } from '../../db/client'
import { AppError } from '../../http/app-error'
import { parse } from '../../http/parse'
import { registerHandler } from '../../jobs/registry'
import { schedule } from '../../jobs/schedule'
import { sendStoredFile } from '../../storage/download'
import { assertDeclaredSize, registerRawUpload } from '../../storage/raw-body'
import { getStorage } from '../../storage/storage'
import {
  createConfiguration,
  listConfigurations,
  updateConfiguration,
} from './backup-configurations.service'
import { downloadableLog, getLog, listLogs } from './backup-logs.service'
import { getRestore, previewRestore, runRestoreJob, startRestore } from './backup-restore.service'
import { runBackupJob, runConfiguration, runNow, settleDeadBackup } from './backup-run.service'
import {
  BACKUP_UPLOADS_PRUNE_JOB,
  pruneBackupUploadsJob,
  receiveBackupUpload,
} from './backup-uploads.service'
import {
  BACKUP_MAX_BYTES,
  BACKUP_RESTORE_JOB,
  BACKUP_RETENTION_JOB,
  BACKUP_RUN_JOB,
  BACKUP_TICK_JOB,
  backupFileName,
} from './backups.service'
import { pruneOldBackups } from './backup-retention'
import { scheduleDueBackups } from './backup-schedule'

let handlersRegistered = false
let schedulesRegistered = false

/** The backup and restore jobs' handlers, once per process (buildApp and all-jobs.ts). */
export function registerBackupJobs(): void {
  if (handlersRegistered) return
  handlersRegistered = true
  registerHandler(BACKUP_RUN_JOB, runBackupJob, {
    perHospitalRunning: 2,
    onDead: (job, ctx) => settleDeadBackup(job, ctx),
  })
  registerHandler(BACKUP_RESTORE_JOB, runRestoreJob, { perHospitalRunning: 1 })
  registerHandler(BACKUP_TICK_JOB, async (_job, ctx) => ({
    started: await scheduleDueBackups(ctx.db, new Date(), ctx.log),
  }))
  registerHandler(BACKUP_UPLOADS_PRUNE_JOB, pruneBackupUploadsJob)
  registerHandler(BACKUP_RETENTION_JOB, async (_job, ctx) => ({
    removed: await pruneOldBackups(ctx.db, new Date(), ctx.log),
  }))
}

/** The scheduler tick (every minute), retention (hourly), upload pruning (daily): all-jobs.ts only. */
export function registerBackupSchedules(): void {
  registerBackupJobs()
  if (schedulesRegistered) return
  schedulesRegistered = true
  schedule(BACKUP_TICK_JOB, { everyMs: 60_000 })
  schedule(BACKUP_RETENTION_JOB, { everyMs: 3_600_000 })
  // Uploaded backups no restore needs any more (issue 39), daily.
  schedule(BACKUP_UPLOADS_PRUNE_JOB, { dailyAt: '04:00', timeZone: 'Asia/Kolkata' })
}

/**
 * Backups (issue 29, docs/decisions/039-backups.md): admins only (backup:manage). The API is
 * listed in src/shared/schemas/backup.ts.
 */
export function backupRoutes(app: FastifyInstance, { db }: { db: AppDb }): void {
  registerBackupJobs()
  const read = { config: requirePermission('backup:read') }
  const manage = { config: requirePermission('backup:manage') }
  const exporting = { config: requirePermission('data:export') }

  app.get('/api/backup/configurations', read, async (req) => ({
    configurations: await listConfigurations(db, actingMember(req)),
  }))

  app.post('/api/backup/configurations', manage, async (req, reply) => {
    const input = parse(createBackupConfigurationInput, req.body)
    const configuration = await createConfiguration(db, actingMember(req), input)
    return reply.status(201).send({ configuration })
  })

  app.patch('/api/backup/configurations/:id', manage, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    const { isActive } = parse(updateBackupConfigurationInput, req.body)
    return { configuration: await updateConfiguration(db, actingMember(req), id, isActive) }
  })

  app.post('/api/backup/run/:id', manage, async (req, reply) => {
    const { id } = parse(uuidParam, req.params, 'id')
    const log = await runConfiguration(db, actingMember(req), id)
    return reply.status(202).send({ log })
  })

  app.post('/api/backup/run-now', manage, async (req, reply) => {
    const { dataTypes } = parse(runNowInput, req.body ?? {})
    const log = await runNow(db, actingMember(req), dataTypes)
    return reply.status(202).send({ log })
  })

  app.get('/api/backup/logs', read, async (req) => {
    const { limit } = parse(backupLogsQuery, req.query)
    return { logs: await listLogs(db, actingMember(req), limit) }
  })

  app.get('/api/backup/logs/:id', read, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    return { log: await getLog(db, actingMember(req), id) }
  })

  app.get('/api/backup/logs/:id/download', exporting, async (req, reply) => {
    const { id } = parse(uuidParam, req.params, 'id')
    const row = await downloadableLog(db, actingMember(req), id)
    return sendStoredFile(reply, {
      storage: getStorage(),
      key: row.storageKey as string,
      filename: backupFileName(row),
      contentType: 'application/octet-stream',
      ...(row.dataSize !== null ? { size: row.dataSize } : {}),
    })
  })

  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', (_req, _payload, done) => {
      done(
        new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the backup file as application/octet-stream'),
      )
    })
    registerRawUpload(scope)
    scope.post('/api/backup/uploads', manage, async (req, reply) => {
      const who = actingMember(req)
      assertDeclaredSize(req, BACKUP_MAX_BYTES)
      if (!req.body) {
        throw new AppError('VALIDATION', 'Send the backup file', [
          { path: 'file', message: 'Send the backup file' },
        ])
      }
      const answer = await receiveBackupUpload(db, who, req.body as Readable)
      return reply.status(201).send(answer)
    })
  })

  app.post('/api/backup/restore/preview', manage, async (req) => {
    const { source, mode } = parse(restoreInput, req.body)
    return previewRestore(db, actingMember(req), source, mode)
  })

  app.post('/api/backup/restore', manage, async (req, reply) => {
    const { source, mode } = parse(restoreInput, req.body)
    const restore = await startRestore(db, actingMember(req), source, mode)
    return reply.status(202).send({ restore })
  })

  app.get('/api/backup/restores/:id', read, async (req) => {
    const { id } = parse(uuidParam, req.params, 'id')
    return { restore: await getRestore(db, actingMember(req), id) }
  })
}
