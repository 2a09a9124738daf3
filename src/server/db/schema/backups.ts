import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import {
  type BackupDataType,
  backupFrequencies,
  backupLogStatuses,
  backupTypes,
  type RestoreTablePreview,
  restoreModes,
  restoreStatuses,
} from '../../../shared/schemas/backup'
import { hospitals } from './hospitals'

/*
 * Backups (issue 29, drizzle/0032_backups.sql, docs/decisions/039-backups.md): tenant tables
 * under forced RLS. The encrypted backup files live in object storage (storage/), keyed
 * h/<hospital>/backups/<log id>.
 */

export const backupConfigurations = pgTable(
  'backup_configurations',
  {
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    backupType: text('backup_type', { enum: backupTypes }).notNull(),
    frequency: text('frequency', { enum: backupFrequencies }).notNull(),
    dataTypes: text('data_types').array().notNull().$type<BackupDataType[]>(),
    /** encryptSecret(token, `backup-gdrive:<hospitalId>`); never returned by the API. */
    gdriveAccessTokenEnc: text('gdrive_access_token_enc'),
    gdriveFolderId: text('gdrive_folder_id'),
    isActive: boolean('is_active').notNull().default(true),
    /** The start of the last successful run. */
    lastBackup: timestamp('last_backup', { withTimezone: true }),
    /** The start of the last run, successful or not (the scheduler's clock). */
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.hospitalId, t.id] })],
)

export const backupLogs = pgTable(
  'backup_logs',
  {
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    configurationId: uuid('configuration_id'),
    status: text('status', { enum: backupLogStatuses }).notNull().default('running'),
    backupType: text('backup_type', { enum: backupTypes }).notNull(),
    dataTypes: text('data_types').array().notNull().$type<BackupDataType[]>(),
    origin: text('origin', { enum: ['manual', 'scheduled', 'seed'] })
      .notNull()
      .default('manual'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    dataSize: bigint('data_size', { mode: 'number' }),
    recordCount: integer('record_count'),
    progress: integer('progress').notNull().default(0),
    error: text('error'),
    storageKey: text('storage_key'),
    driveFileId: text('drive_file_id'),
    /** Retention deleted the local file (storage_key cleared with it). */
    filesDeletedAt: timestamp('files_deleted_at', { withTimezone: true }),
    /** Retention deleted the Google Drive copy (drizzle/0036). */
    driveDeletedAt: timestamp('drive_deleted_at', { withTimezone: true }),
    /** What Drive answered when retention's deletion failed (retried every hour). */
    driveDeleteError: text('drive_delete_error'),
    createdBy: text('created_by'),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    foreignKey({
      columns: [t.hospitalId, t.configurationId],
      foreignColumns: [backupConfigurations.hospitalId, backupConfigurations.id],
    }).onDelete('set null'),
    index('backup_logs_hospital_started_idx').on(t.hospitalId, t.startedAt),
    uniqueIndex('backup_logs_one_running_idx')
      .on(t.hospitalId, t.configurationId)
      .where(sql`status = 'running' AND configuration_id IS NOT NULL`),
  ],
)

export const backupUploads = pgTable(
  'backup_uploads',
  {
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    storageKey: text('storage_key').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    uploadedBy: text('uploaded_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.hospitalId, t.id] })],
)

export const backupRestores = pgTable(
  'backup_restores',
  {
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
    id: uuid('id')
      .notNull()
      .default(sql`gen_random_uuid()`),
    status: text('status', { enum: restoreStatuses }).notNull().default('running'),
    mode: text('mode', { enum: restoreModes }).notNull(),
    sourceLogId: uuid('source_log_id'),
    sourceUploadId: uuid('source_upload_id'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    progress: integer('progress').notNull().default(0),
    error: text('error'),
    tables: jsonb('tables').$type<RestoreTablePreview[]>(),
    createdBy: text('created_by'),
  },
  (t) => [
    primaryKey({ columns: [t.hospitalId, t.id] }),
    uniqueIndex('backup_restores_one_running_idx')
      .on(t.hospitalId)
      .where(sql`status = 'running'`),
  ],
)
