import { Badge } from '@/client/components/ui/badge'
import {
  priorityLabels,
  statusLabels,
  type TicketPriority,
  type TicketStatus,
} from '@/shared/schemas/support-tickets'

const statusVariant = {
  open: 'blue',
  in_progress: 'yellow',
  resolved: 'green',
  closed: 'secondary',
} as const satisfies Record<TicketStatus, string>

const priorityVariant = {
  low: 'secondary',
  medium: 'blue',
  high: 'yellow',
  urgent: 'destructive',
} as const satisfies Record<TicketPriority, string>

export function TicketStatusBadge({ status }: { status: TicketStatus }) {
  return <Badge variant={statusVariant[status]}>{statusLabels[status]}</Badge>
}

export function TicketPriorityBadge({ priority }: { priority: TicketPriority }) {
  return <Badge variant={priorityVariant[priority]}>{priorityLabels[priority]} priority</Badge>
}
