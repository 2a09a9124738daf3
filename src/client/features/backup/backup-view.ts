import { formatDate, formatTime } from '@/shared/dates'
import {
  type BackupDataType,
  backupDataTypeLabels,
  type BackupLogStatus,
  type RestoreTablePreview,
} from '@/shared/schemas/backup'

/** The log's status badge (spec section 4: success, failed, otherwise in progress). */
export const logStatusView: Record<
  BackupLogStatus,
  { label: string; variant: 'green' | 'destructive' | 'blue' }
> = {
  success: { label: 'Success', variant: 'green' },
  failed: { label: 'Failed', variant: 'destructive' },
  running: { label: 'In Progress', variant: 'blue' },
}

/** 'Leads, Sales, Billing' in the spec's order, whatever order the server sent. */
export function dataTypesText(types: readonly BackupDataType[]): string {
  const order = Object.keys(backupDataTypeLabels) as BackupDataType[]
  return order
    .filter((t) => types.includes(t))
    .map((t) => backupDataTypeLabels[t])
    .join(', ')
}

/** 'Nov 22, 2026, 3:05 PM' in the hospital's time zone. */
export function dateTimeText(iso: string, timeZone?: string): string {
  return `${formatDate(iso, timeZone)}, ${formatTime(iso, timeZone)}`
}

/** A progress figure the bar can show: a whole number from 0 to 100. */
export function clampPercent(value: number | null | undefined): number {
  if (value === null || value === undefined || !Number.isFinite(value)) return 0
  return Math.min(100, Math.max(0, Math.round(value)))
}

/** 'patient_notes' -> 'Patient notes': a table's name as a person reads it. */
export function tableLabel(table: string): string {
  const words = table.replace(/_/g, ' ').trim()
  return words ? words[0]?.toUpperCase() + words.slice(1) : table
}

/** The dry run's totals: what the restore would add, change and remove across every table. */
export function previewTotals(tables: readonly RestoreTablePreview[]) {
  return tables.reduce(
    (sum, t) => ({
      inBackup: sum.inBackup + t.inBackup,
      toInsert: sum.toInsert + t.toInsert,
      toUpdate: sum.toUpdate + t.toUpdate,
      toDelete: sum.toDelete + t.toDelete,
    }),
    { inBackup: 0, toInsert: 0, toUpdate: 0, toDelete: 0 },
  )
}
