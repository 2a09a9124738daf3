import { Badge } from '@/client/components/ui/badge'
import { type LeadGenStatus, leadGenStatusLabels } from '@/shared/lead-generation'

const variants = {
  requested: 'secondary',
  approved: 'blue',
  active: 'green',
  paused: 'yellow',
  completed: 'purple',
} as const satisfies Record<LeadGenStatus, string>

/** A lead-generation request's status (the hospital's page and the Super Admin tab). */
export function LeadGenStatusBadge({ status }: { status: LeadGenStatus }) {
  return <Badge variant={variants[status]}>{leadGenStatusLabels[status]}</Badge>
}
