import {
  type LucideIcon,
  Mail,
  MessageCircle,
  MessageSquare,
  Phone,
  PhoneCall,
  Settings2,
} from 'lucide-react'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { useUser } from '@/client/lib/current-user'
import { formatAgo, formatDate, formatTime } from '@/shared/dates'
import type { CommunicationType } from '@/shared/schemas/leads'
import { useCommunications } from '../api/get-communications'

const typeIcons: Record<CommunicationType, LucideIcon> = {
  email: Mail,
  phone: Phone,
  call: PhoneCall,
  whatsapp: MessageCircle,
  sms: MessageSquare,
  system: Settings2,
}

const typeLabels: Record<CommunicationType, string> = {
  email: 'Email',
  phone: 'Phone',
  call: 'Call',
  whatsapp: 'WhatsApp',
  sms: 'SMS',
  system: 'System',
}

/** Spec: the lead's communications, newest first, each 'x ago' with its type and direction. */
export function CommunicationHistory({ leadId }: { leadId: string }) {
  const history = useCommunications(leadId)
  const timeZone = useUser().data?.timeZone
  if (history.isPending) {
    return (
      <div className="space-y-2" aria-busy="true" aria-label="Loading communication history">
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    )
  }
  if (history.isError) {
    return (
      <InlineLoadError
        message="Failed to load the communication history."
        onRetry={() => void history.refetch()}
      />
    )
  }
  if (history.data.length === 0) {
    return <p className="text-sm text-slate-600">No communications yet.</p>
  }
  return (
    <ol className="space-y-2" aria-label="Communications, newest first">
      {history.data.map((c) => {
        const Icon = typeIcons[c.type]
        const subject = typeof c.metadata.subject === 'string' ? c.metadata.subject : null
        return (
          <li
            key={c.id}
            data-testid="communication"
            className="flex min-w-0 gap-3 rounded-md border border-slate-200 p-3"
          >
            <Icon className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden="true" />
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-center gap-x-2 text-xs text-slate-600">
                <span className="font-semibold text-slate-800">{typeLabels[c.type]}</span>
                <span>{c.direction === 'inbound' ? 'Inbound' : 'Outbound'}</span>
                {c.createdByName ? <span>by {c.createdByName}</span> : null}
                <time
                  dateTime={c.createdAt}
                  title={`${formatDate(c.createdAt, timeZone)}, ${formatTime(c.createdAt, timeZone)}`}
                >
                  {formatAgo(c.createdAt)}
                </time>
              </p>
              {subject ? <p className="mt-1 text-sm font-medium">{subject}</p> : null}
              <p className="mt-0.5 text-sm whitespace-pre-line [overflow-wrap:anywhere]">
                {c.content}
              </p>
            </div>
          </li>
        )
      })}
    </ol>
  )
}
