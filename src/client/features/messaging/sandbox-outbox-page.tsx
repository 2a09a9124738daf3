import { FlaskConical } from 'lucide-react'
import { Card, CardContent } from '@/client/components/ui/card'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { useUser } from '@/client/lib/current-user'
import { formatDate, formatTime } from '@/shared/dates'
import type { CommunicationStatus } from '@/shared/schemas/leads'
import { communicationStatuses } from '@/shared/schemas/leads'
import { useSandboxOutbox } from '@/client/components/messaging/api/get-sandbox-outbox'
import { SandboxLabel } from '@/client/components/messaging/components/sandbox-label'
import { StatusBadge } from '@/client/components/messaging/components/status-badge'
import { channelLabels } from '@/client/components/messaging/message-rules'
import type { SandboxMessage } from '@/client/components/messaging/types'
import { outboxRecipient } from './outbox-recipient'
import { SimulateIncomingCard } from '../calls-incoming/simulate-incoming-card'

const isStatus = (s: string): s is CommunicationStatus =>
  (communicationStatuses as readonly string[]).includes(s)

function OutboxItem({ m, timeZone }: { m: SandboxMessage; timeZone: string | undefined }) {
  return (
    <li data-testid="sandbox-message">
      <Card>
        <CardContent className="space-y-1.5 p-4">
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-semibold">{channelLabels[m.channel]}</span>
            <span className="text-slate-600">to {outboxRecipient(m.to)}</span>
            {isStatus(m.status) ? <StatusBadge status={m.status} /> : <span>{m.status}</span>}
            <SandboxLabel plain />
            <time className="text-xs text-slate-600" dateTime={m.createdAt}>
              {formatDate(m.createdAt, timeZone)}, {formatTime(m.createdAt, timeZone)}
            </time>
          </p>
          {m.subject ? <p className="text-sm font-medium">Subject: {m.subject}</p> : null}
          <p className="text-sm whitespace-pre-line [overflow-wrap:anywhere]">{m.text}</p>
        </CardContent>
      </Card>
    </li>
  )
}

/** /messaging/sandbox: what the sandbox "sent", rendered as the recipient would see it. */
export function SandboxOutboxPage() {
  const outbox = useSandboxOutbox()
  const timeZone = useUser().data?.timeZone
  return (
    <div className="min-w-0 space-y-4">
      <h1 className="text-2xl font-bold">Sandbox Outbox</h1>
      <p className="flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
        <FlaskConical className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>
          Sandbox: these messages were not sent to anyone. Channels without a provider use the
          sandbox, so the whole flow can be tried safely. Set up providers in Settings →
          Integrations.
        </span>
      </p>
      <SimulateIncomingCard />
      {outbox.isPending ? (
        <div className="space-y-2" aria-label="Loading the sandbox outbox">
          <Skeleton className="h-20 w-full" />
          <Skeleton className="h-20 w-full" />
        </div>
      ) : outbox.isError ? (
        <InlineLoadError
          message="Failed to load the sandbox outbox."
          onRetry={() => void outbox.refetch()}
        />
      ) : outbox.data.length === 0 ? (
        <p className="text-sm text-slate-600">No sandbox messages yet.</p>
      ) : (
        <ul className="space-y-3" aria-label="Sandbox messages, newest first">
          {outbox.data.map((m) => (
            <OutboxItem key={m.id} m={m} timeZone={timeZone} />
          ))}
        </ul>
      )}
    </div>
  )
}
