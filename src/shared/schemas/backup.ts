import { z } from 'zod'

/*
 * Backups (issue 29, docs/decisions/039-backups.md). Admins only (backup:manage).
 *   GET    /api/backup/configurations            {configurations: BackupConfiguration[]}
 *   POST   /api/backup/configurations            createBackupConfigurationInput -> 201 {configuration}
 *   PATCH  /api/backup/configurations/:id        {isActive} -> {configuration}
 *   POST   /api/backup/run/:id                   -> 202 {log} (409 while that configuration runs)
 *   POST   /api/backup/run-now                   {dataTypes?} offline, all types by default -> 202 {log}
 *   GET    /api/backup/logs?limit=10             {logs: BackupLog[]}, newest first
 *   GET    /api/backup/logs/:id                  {log} (progress polling)
 *   GET    /api/backup/logs/:id/download         the encrypted backup file (offline backups)
 *   POST   /api/backup/uploads                   raw application/octet-stream -> 201 {uploadId}
 *   POST   /api/backup/restore/preview           {source, mode} -> RestorePreview (dry run)
 *   POST   /api/backup/restore                   {source, mode} -> 202 {restore}
 *   GET    /api/backup/restores/:id              {restore}
 */

/** Spec section 3. */
export const backupTypes = ['offline', 'gdrive'] as const
export type BackupType = (typeof backupTypes)[number]
export const backupTypeLabels: Record<BackupType, string> = {
  offline: 'Offline',
  gdrive: 'Google Drive',
}

export const backupFrequencies = ['1hour', '1day', '1week', '1month'] as const
export type BackupFrequency = (typeof backupFrequencies)[number]
/** Spec section 9. */
export const backupFrequencyLabels: Record<BackupFrequency, string> = {
  '1hour': 'Every Hour',
  '1day': 'Daily',
  '1week': 'Weekly',
  '1month': 'Monthly',
}
const HOUR_MS = 60 * 60 * 1000
/** How long after lastBackup a configuration is due again (a month is 30 days). */
export const backupFrequencyMs: Record<BackupFrequency, number> = {
  '1hour': HOUR_MS,
  '1day': 24 * HOUR_MS,
  '1week': 7 * 24 * HOUR_MS,
  '1month': 30 * 24 * HOUR_MS,
}

/** sales = appointments and campaigns. */
export const backupDataTypes = ['leads', 'sales', 'billing'] as const
export type BackupDataType = (typeof backupDataTypes)[number]
export const backupDataTypeLabels: Record<BackupDataType, string> = {
  leads: 'Leads',
  sales: 'Sales',
  billing: 'Billing',
}

export const backupLogStatuses = ['running', 'success', 'failed'] as const
export type BackupLogStatus = (typeof backupLogStatuses)[number]

export const restoreModes = ['replace', 'merge'] as const
export type RestoreMode = (typeof restoreModes)[number]
export const restoreStatuses = ['running', 'success', 'failed'] as const
export type RestoreStatus = (typeof restoreStatuses)[number]

/** Spec section 5 messages. */
export const SELECT_DATA_TYPE_MESSAGE = 'Select at least one data type'
export const DRIVE_TOKEN_MESSAGE = 'Google Drive needs an access token'
export const GDRIVE_TOKEN_MAX = 4096
export const GDRIVE_FOLDER_MAX = 200
/** Recent Backup Activity shows 10 logs (spec section 9). */
export const RECENT_LOGS = 10
export const LOGS_LIMIT_MAX = 100

const dataTypesField = z
  .array(z.enum(backupDataTypes, { message: 'Unknown data type' }), {
    message: SELECT_DATA_TYPE_MESSAGE,
  })
  .min(1, { message: SELECT_DATA_TYPE_MESSAGE })
  .max(backupDataTypes.length)
  .refine((list) => new Set(list).size === list.length, { message: 'Each data type once' })

export const createBackupConfigurationInput = z
  .object({
    backupType: z.enum(backupTypes, { message: 'Backup type is offline or gdrive' }),
    frequency: z.enum(backupFrequencies, {
      message: 'Frequency is one of 1hour, 1day, 1week, 1month',
    }),
    dataTypes: dataTypesField,
    gdriveAccessToken: z.string().trim().max(GDRIVE_TOKEN_MAX).optional().nullable(),
    gdriveFolderId: z
      .string()
      .trim()
      .max(GDRIVE_FOLDER_MAX)
      .regex(/^[A-Za-z0-9_-]*$/, { message: 'Folder ID has letters, digits, - and _ only' })
      .optional()
      .nullable(),
    isActive: z.boolean().optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.backupType === 'gdrive' && !value.gdriveAccessToken) {
      ctx.addIssue({ code: 'custom', path: ['gdriveAccessToken'], message: DRIVE_TOKEN_MESSAGE })
    }
  })
export type CreateBackupConfigurationInput = z.infer<typeof createBackupConfigurationInput>

export const updateBackupConfigurationInput = z
  .object({ isActive: z.boolean({ message: 'isActive is true or false' }) })
  .strict()
export type UpdateBackupConfigurationInput = z.infer<typeof updateBackupConfigurationInput>

export const runNowInput = z.object({ dataTypes: dataTypesField.optional() }).strict()
export type RunNowInput = z.infer<typeof runNowInput>

export const backupLogsQuery = z
  .object({ limit: z.coerce.number().int().min(1).max(LOGS_LIMIT_MAX).default(RECENT_LOGS) })
  .strict()

export const backupConfiguration = z.object({
  id: z.string(),
  backupType: z.enum(backupTypes),
  frequency: z.enum(backupFrequencies),
  dataTypes: z.array(z.enum(backupDataTypes)),
  gdriveAccessTokenSet: z.boolean(),
  gdriveFolderId: z.string().nullable(),
  isActive: z.boolean(),
  lastBackup: z.string().nullable(),
  running: z.boolean(),
  createdAt: z.string(),
})
export type BackupConfiguration = z.infer<typeof backupConfiguration>

export const backupLog = z.object({
  id: z.string(),
  configurationId: z.string().nullable(),
  status: z.enum(backupLogStatuses),
  backupType: z.enum(backupTypes),
  dataTypes: z.array(z.enum(backupDataTypes)),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  dataSize: z.number().nullable(),
  recordCount: z.number().nullable(),
  progress: z.number().min(0).max(100),
  error: z.string().nullable(),
  downloadable: z.boolean(),
})
export type BackupLog = z.infer<typeof backupLog>

export const backupConfigurationList = z.object({ configurations: z.array(backupConfiguration) })
export const backupConfigurationAnswer = z.object({ configuration: backupConfiguration })
export const backupLogList = z.object({ logs: z.array(backupLog) })
export const backupLogAnswer = z.object({ log: backupLog })

/* ---- Restore ---- */

export const restoreSource = z.union([
  z.object({ logId: z.string().uuid({ message: 'Unknown backup' }) }).strict(),
  z.object({ uploadId: z.string().uuid({ message: 'Unknown upload' }) }).strict(),
])
export type RestoreSource = z.infer<typeof restoreSource>

export const restoreInput = z
  .object({
    source: restoreSource,
    mode: z.enum(restoreModes, { message: 'Mode is replace or merge' }),
  })
  .strict()
export type RestoreInput = z.infer<typeof restoreInput>

export const uploadAnswer = z.object({ uploadId: z.string() })

export const restoreTablePreview = z.object({
  table: z.string(),
  inBackup: z.number(),
  current: z.number(),
  toInsert: z.number(),
  toUpdate: z.number(),
  toDelete: z.number(),
})
export type RestoreTablePreview = z.infer<typeof restoreTablePreview>

export const backupManifestSummary = z.object({
  format: z.number(),
  schemaVersion: z.string(),
  hospitalId: z.string(),
  hospitalName: z.string(),
  dataTypes: z.array(z.enum(backupDataTypes)),
  createdAt: z.string(),
  recordCount: z.number(),
})
export type BackupManifestSummary = z.infer<typeof backupManifestSummary>

export const restorePreview = z.object({
  manifest: backupManifestSummary,
  mode: z.enum(restoreModes),
  tables: z.array(restoreTablePreview),
})
export type RestorePreview = z.infer<typeof restorePreview>

export const restoreRun = z.object({
  id: z.string(),
  status: z.enum(restoreStatuses),
  mode: z.enum(restoreModes),
  progress: z.number().min(0).max(100),
  sourceLogId: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
  tables: z.array(restoreTablePreview).nullable(),
})
export type RestoreRun = z.infer<typeof restoreRun>
export const restoreAnswer = z.object({ restore: restoreRun })
