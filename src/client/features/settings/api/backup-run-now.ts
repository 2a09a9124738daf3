import { useMutation } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type { BackupLog, RunNowInput } from '@/shared/schemas/backup'

/** POST /api/backup/run-now (admins): an offline backup of every data type, run as a job. */
export function runBackupNow(input: RunNowInput = {}): Promise<{ log: BackupLog }> {
  return api.post<{ log: BackupLog }>('/api/backup/run-now', input)
}

export function useRunBackupNow() {
  return useMutation({ mutationFn: runBackupNow })
}
