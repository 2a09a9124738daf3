import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/client/lib/api-client'
import type {
  BackupConfiguration,
  BackupLog,
  CreateBackupConfigurationInput,
} from '@/shared/schemas/backup'

/** Every backup read shares this root: a finished run or restore refreshes them all. */
export const backupRootKey = ['/api/backup'] as const

/** GET /api/backup/configurations (admins): the hospital's configurations. */
export function getConfigurationsQueryOptions() {
  return queryOptions({
    queryKey: [...backupRootKey, 'configurations'],
    queryFn: () =>
      api
        .get<{ configurations: BackupConfiguration[] }>('/api/backup/configurations')
        .then((answer) => answer.configurations),
  })
}

export function useBackupConfigurations() {
  return useQuery(getConfigurationsQueryOptions())
}

/** POST /api/backup/configurations: 201 {configuration}. */
export function useCreateConfiguration() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: CreateBackupConfigurationInput) =>
      api
        .post<{ configuration: BackupConfiguration }>('/api/backup/configurations', input)
        .then((answer) => answer.configuration),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: backupRootKey }),
  })
}

/** PATCH /api/backup/configurations/:id {isActive}: the active toggle. */
export function useSetConfigurationActive() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) =>
      api
        .patch<{
          configuration: BackupConfiguration
        }>(`/api/backup/configurations/${encodeURIComponent(id)}`, { isActive })
        .then((answer) => answer.configuration),
    // The answer is the saved configuration: the list shows it at once, then reloads.
    onSuccess: (saved) => {
      queryClient.setQueryData(getConfigurationsQueryOptions().queryKey, (list) =>
        list?.map((c) => (c.id === saved.id ? saved : c)),
      )
      return queryClient.invalidateQueries({ queryKey: backupRootKey })
    },
  })
}

/** POST /api/backup/run/:id: 202 {log}, the run's log (409 while that configuration runs). */
export function useRunBackup() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) =>
      api
        .post<{ log: BackupLog }>(`/api/backup/run/${encodeURIComponent(id)}`)
        .then((answer) => answer.log),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: backupRootKey }),
  })
}
