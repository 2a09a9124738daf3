import { Badge } from '@/client/components/ui/badge'
import {
  type LeadPriority,
  leadPriorityLabels,
  type LeadStatus,
  leadStatusLabels,
} from '@/shared/lead-labels'
import type { Lead } from '@/shared/schemas/leads'
import { leadInitials, priorityVariants, statusVariants } from '../lead-format'

export function StatusBadge({ status }: { status: LeadStatus }) {
  return <Badge variant={statusVariants[status]}>{leadStatusLabels[status]}</Badge>
}

export function PriorityBadge({ priority }: { priority: LeadPriority }) {
  return <Badge variant={priorityVariants[priority]}>{leadPriorityLabels[priority]}</Badge>
}

export function LeadAvatar({ name }: { name: string }) {
  return (
    <span
      aria-hidden="true"
      className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-100 text-sm font-semibold text-brand-800"
    >
      {leadInitials(name)}
    </span>
  )
}

/** Settings → max contact attempts: a lead contacted more often than that is flagged. */
export function ContactLimitBadge({
  lead,
}: {
  lead: Pick<Lead, 'contactAttempts' | 'contactLimitExceeded'>
}) {
  if (!lead.contactLimitExceeded) return null
  return (
    <Badge variant="destructive" title={`${lead.contactAttempts} contact attempts`}>
      Max attempts reached
    </Badge>
  )
}
