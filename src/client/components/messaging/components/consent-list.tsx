import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiError } from '@/client/lib/api-client'
import { useCan, useUser } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { formatDate, formatTime } from '@/shared/dates'
import type { ConsentMethod, MessageChannel } from '@/shared/messaging'
import type { ConsentRecordView } from '@/shared/schemas/messaging-events'
import { type ConsentSubject, useConsents, useWithdrawConsent } from '../api/get-consents'

const channelLabels: Record<MessageChannel, string> = {
  whatsapp: 'WhatsApp',
  sms: 'SMS',
  email: 'Email',
}

const methodLabels: Record<ConsentMethod, string> = {
  keyword: 'by reply keyword',
  button: 'by a message button',
  staff: 'recorded by staff',
  provider: 'reported by the provider',
  form: 'on a form',
}

/** The ids of the records that are each channel and address's current choice (the newest). */
function currentIds(records: readonly ConsentRecordView[]): Set<string> {
  const seen = new Set<string>()
  const current = new Set<string>()
  for (const r of records) {
    const key = `${r.channel} ${r.contactAddress}`
    if (seen.has(key)) continue
    seen.add(key)
    current.add(r.id)
  }
  return current
}

/**
 * DPDP consent records of a lead or a patient, newest first, each with its channel, choice,
 * how and when it was given; a current opt-in has a Withdraw button (for those who may record
 * consent: leads:write, as the server checks). Withdrawing adds an opt-out; nothing is deleted.
 */
export function ConsentList({ of }: { of: ConsentSubject }) {
  const query = useConsents(of)
  const withdraw = useWithdrawConsent(of)
  const canWithdraw = useCan('leads:write')
  const timeZone = useUser().data?.timeZone
  if (query.isPending) {
    return (
      <div className="space-y-2" aria-label="Loading consent records">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
      </div>
    )
  }
  if (query.isError) {
    return (
      <InlineLoadError
        message="Failed to load the consent records."
        onRetry={() => void query.refetch()}
      />
    )
  }
  const records = query.data
  if (records.length === 0) {
    return <p className="text-sm text-slate-600">No consent records yet.</p>
  }
  const current = currentIds(records)
  const onWithdraw = (channel: MessageChannel) =>
    withdraw.mutate(channel, {
      onSuccess: () => toast.success(`${channelLabels[channel]} consent withdrawn`),
      onError: (error) =>
        toast.error(
          'Failed to withdraw consent',
          error instanceof ApiError ? error.serverMessage : undefined,
        ),
    })
  return (
    <ul className="divide-y divide-slate-200">
      {records.map((r) => {
        const isCurrent = current.has(r.id)
        return (
          <li key={r.id} className="flex min-w-0 flex-wrap items-center justify-between gap-2 py-2">
            <div className="min-w-0 space-y-0.5">
              <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                {channelLabels[r.channel]}
                <Badge variant={r.action === 'opt_in' ? 'green' : 'secondary'}>
                  {r.action === 'opt_in' ? 'Opted in' : 'Withdrawn'}
                </Badge>
                {isCurrent ? null : <span className="text-xs text-slate-600">(superseded)</span>}
              </p>
              <p className="text-xs text-slate-600 [overflow-wrap:anywhere]">
                {r.contactAddress} · {methodLabels[r.method]}
                {r.recordedByName ? ` (${r.recordedByName})` : ''} ·{' '}
                {formatDate(r.createdAt, timeZone)}, {formatTime(r.createdAt, timeZone)}
                {r.noticeVersion ? ` · notice ${r.noticeVersion}` : ''}
              </p>
            </div>
            {canWithdraw && isCurrent && r.action === 'opt_in' ? (
              <Button
                variant="outline"
                size="sm"
                disabled={withdraw.isPending}
                onClick={() => onWithdraw(r.channel)}
                aria-label={`Withdraw ${channelLabels[r.channel]} consent`}
              >
                Withdraw
              </Button>
            ) : null}
          </li>
        )
      })}
    </ul>
  )
}
