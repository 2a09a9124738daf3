import { Badge } from '@/client/components/ui/badge'
import type { CommunicationStatus } from '@/shared/schemas/leads'
import { statusLabels } from '../message-rules'

const variants = {
  queued: 'secondary',
  sending: 'secondary',
  sent: 'blue',
  delivered: 'green',
  read: 'purple',
  failed: 'destructive',
  received: 'yellow',
  logged: 'outline',
} as const satisfies Record<CommunicationStatus, string>

/** A message's live state: Queued → Sent → Delivered → Read, or Failed. */
export function StatusBadge({ status }: { status: CommunicationStatus }) {
  return (
    <Badge variant={variants[status]} data-testid="message-status">
      {statusLabels[status]}
    </Badge>
  )
}
