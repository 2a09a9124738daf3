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
import type { Communication, CommunicationType } from '@/shared/schemas/leads'
import { useCommunications } from '../api/get-communications'
import type { Recipient } from '../types'
import { useMessageEvents } from '../use-message-events'
import { CallRecording } from './call-recording'
import { SandboxLabel } from './sandbox-label'
import { StatusBadge } from './status-badge'

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

/** A message sent through a provider (or the sandbox): its state is worth showing. */
const isMessage = (c: Communication) => c.status !== 'logged' && c.type !== 'system'

function Entry({ c, timeZone }: { c: Communication; timeZone: string | undefined }) {
  const Icon = typeIcons[c.type]
  const subject = typeof c.metadata.subject === 'string' ? c.metadata.subject : null
  return (
    <li
      data-testid="communication"
      className="flex min-w-0 gap-3 rounded-md border border-slate-200 p-3"
    >
      <Icon className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-600">
          <span className="font-semibold text-slate-800">{typeLabels[c.type]}</span>
          <span>{c.direction === 'inbound' ? 'Inbound' : 'Outbound'}</span>
          {c.createdByName ? <span>by {c.createdByName}</span> : null}
          <time
            dateTime={c.createdAt}
            title={`${formatDate(c.createdAt, timeZone)}, ${formatTime(c.createdAt, timeZone)}`}
          >
            {formatAgo(c.createdAt)}
          </time>
          {isMessage(c) ? <StatusBadge status={c.status} /> : null}
          {c.sandbox ? <SandboxLabel /> : null}
        </p>
        {subject ? <p className="mt-1 text-sm font-medium">{subject}</p> : null}
        <p className="mt-0.5 text-sm whitespace-pre-line [overflow-wrap:anywhere]">{c.content}</p>
        {c.status === 'failed' && c.failureReason ? (
          <p className="mt-1 text-sm text-red-700">Not delivered: {c.failureReason}</p>
        ) : null}
        <CallRecording c={c} />
      </div>
    </li>
  )
}

/**
 * Communication History of a lead or a patient: every call, message and reply, newest first,
 * each message with its live state (queued → sent → delivered → read, or failed and why).
 */
export function CommunicationHistory({ of }: { of: Pick<Recipient, 'kind' | 'id'> }) {
  useMessageEvents()
  const history = useCommunications(of)
  const timeZone = useUser().data?.timeZone
  if (history.isPending) {
    return (
      <div
        className="space-y-2"
        role="status"
        aria-busy="true"
        aria-label="Loading communication history"
      >
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
      {history.data.map((c) => (
        <Entry key={c.id} c={c} timeZone={timeZone} />
      ))}
    </ol>
  )
}
