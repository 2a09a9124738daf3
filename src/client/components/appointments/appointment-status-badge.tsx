import { Badge } from '@/client/components/ui/badge'
import type { AppointmentStatus } from '@/shared/scheduling'

export const appointmentStatusLabels: Record<AppointmentStatus, string> = {
  scheduled: 'Scheduled',
  confirmed: 'Confirmed',
  completed: 'Completed',
  cancelled: 'Cancelled',
  'no-show': 'No-show',
}

const variants = {
  scheduled: 'blue',
  confirmed: 'green',
  completed: 'purple',
  cancelled: 'secondary',
  'no-show': 'destructive',
} as const satisfies Record<AppointmentStatus, string>

export function AppointmentStatusBadge({ status }: { status: AppointmentStatus }) {
  return (
    <Badge variant={variants[status]} className="shrink-0">
      {appointmentStatusLabels[status]}
    </Badge>
  )
}
