import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, toQuery } from '@/client/lib/api-client'
import type { OnboardingTask, OnboardingTaskList } from '@/shared/schemas/platform'
import { adminKey } from './admin-key'

export type TaskFilter = 'pending' | 'completed' | 'all'

export function useOnboardingTasks(status: TaskFilter) {
  return useQuery({
    queryKey: [...adminKey, 'tasks', status],
    queryFn: () =>
      api.get<OnboardingTaskList>(
        `/api/admin/onboarding-tasks${toQuery({ status: status === 'all' ? undefined : status, limit: 100 })}`,
      ),
    placeholderData: keepPreviousData,
  })
}

export function useCompleteTask() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) =>
      api.patch<OnboardingTask>(`/api/admin/onboarding-tasks/${id}/complete`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKey }),
  })
}
