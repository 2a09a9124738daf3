import { CheckCircle2 } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { NativeSelect } from '@/client/components/ui/input'
import { Skeleton } from '@/client/components/ui/skeleton'
import { toast } from '@/client/lib/toast'
import { platformToasts } from '@/shared/schemas/platform'
import { type TaskFilter, useCompleteTask, useOnboardingTasks } from '../api/onboarding'
import { serverMessage } from './form-issues'
import { PriorityBadge } from './status-badge'

/** Onboarding: tasks with a priority badge and 'Mark Complete' on incomplete ones. */
export function OnboardingTab() {
  const [status, setStatus] = useState<TaskFilter>('pending')
  const query = useOnboardingTasks(status)
  const complete = useCompleteTask()
  const items = query.data?.items ?? []
  return (
    <div className="space-y-4">
      <NativeSelect
        aria-label="Show tasks"
        value={status}
        onChange={(e) => setStatus(e.target.value as TaskFilter)}
        className="w-full sm:w-44"
      >
        <option value="pending">Pending</option>
        <option value="completed">Completed</option>
        <option value="all">All tasks</option>
      </NativeSelect>
      {query.isError ? (
        <InlineLoadError
          message="Failed to load onboarding tasks."
          onRetry={() => void query.refetch()}
        />
      ) : query.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
          {status === 'pending' ? 'Every hospital has finished onboarding.' : 'No tasks to show.'}
        </p>
      ) : (
        <ul
          className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white"
          aria-label="Onboarding tasks"
        >
          {items.map((task) => (
            <li
              key={task.id}
              className="flex flex-wrap items-center justify-between gap-3 p-3 sm:p-4"
            >
              <div className="min-w-0 space-y-1">
                <div className="flex flex-wrap items-center gap-2">
                  <p className="font-medium">{task.taskName}</p>
                  <PriorityBadge priority={task.priority} />
                </div>
                <p className="text-sm text-slate-600">{task.description}</p>
                <p className="text-xs text-slate-600">{task.hospitalName}</p>
              </div>
              {task.isCompleted ? (
                <p className="flex items-center gap-1 text-sm text-green-800">
                  <CheckCircle2 className="size-4" aria-hidden="true" />
                  {task.completedHow === 'auto' ? 'Done by the hospital' : 'Completed'}
                </p>
              ) : (
                <Button
                  size="sm"
                  variant="outline"
                  aria-label={`Mark Complete: ${task.taskName}, ${task.hospitalName}`}
                  loading={complete.isPending && complete.variables === task.id}
                  onClick={() =>
                    complete.mutate(task.id, {
                      onSuccess: () => toast.success(platformToasts.taskCompleted),
                      onError: (error) =>
                        toast.error('Failed to complete the task', serverMessage(error)),
                    })
                  }
                >
                  Mark Complete
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
