import { Badge } from '@/client/components/ui/badge'
import {
  type SubscriptionStatus,
  subscriptionStatusLabels,
  type TaskPriority,
} from '@/shared/schemas/platform'

const statusVariant = {
  active: 'green',
  trial: 'blue',
  past_due: 'yellow',
  cancelled: 'secondary',
} as const

export function StatusBadge({ status }: { status: SubscriptionStatus }) {
  return <Badge variant={statusVariant[status]}>{subscriptionStatusLabels[status]}</Badge>
}

const priorityVariant = { high: 'destructive', medium: 'yellow', low: 'secondary' } as const
const priorityLabel = { high: 'High', medium: 'Medium', low: 'Low' } as const

/** Spec section 3: high priority is shown as destructive. */
export function PriorityBadge({ priority }: { priority: TaskPriority }) {
  return <Badge variant={priorityVariant[priority]}>{priorityLabel[priority]}</Badge>
}
