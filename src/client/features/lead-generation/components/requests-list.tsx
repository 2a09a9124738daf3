import { Megaphone } from 'lucide-react'
import {
  creativeSummary,
  LeadGenFigures,
} from '@/client/components/lead-generation/lead-gen-figures'
import { LeadGenStatusBadge } from '@/client/components/lead-generation/lead-gen-status-badge'
import { Button } from '@/client/components/ui/button'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { formatDate } from '@/shared/dates'
import { useLeadGenRequests } from '../api/lead-generation-requests'

/** The hospital's campaign requests, newest first, each with its status. */
export function RequestsList({ onRequest }: { onRequest: () => void }) {
  const query = useLeadGenRequests(true)
  if (query.isError)
    return (
      <InlineLoadError
        message="Failed to load your campaign requests."
        onRetry={() => void query.refetch()}
      />
    )
  if (query.isPending) return <Skeleton className="h-40 w-full" />
  const items = query.data.items
  if (items.length === 0)
    return (
      <div className="space-y-3 rounded-lg border border-dashed border-slate-300 p-6 text-center">
        <Megaphone className="mx-auto size-8 text-slate-400" aria-hidden="true" />
        <p className="text-sm text-slate-600">
          No campaign requests yet. Request one and our team will set it up for you.
        </p>
        <Button onClick={onRequest}>Request Your First Campaign</Button>
      </div>
    )
  return (
    <ul className="space-y-3" aria-label="Your campaign requests">
      {items.map((r) => (
        <li key={r.id} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm text-slate-600">Requested {formatDate(r.createdAt)}</p>
            <LeadGenStatusBadge status={r.campaignStatus} />
          </div>
          <LeadGenFigures request={r} />
          <p className="text-sm text-slate-700">{creativeSummary(r)}</p>
          {r.notes ? <p className="text-sm whitespace-pre-line text-slate-700">{r.notes}</p> : null}
          {r.statusNote ? (
            <p className="rounded-md bg-slate-50 p-2 text-sm text-slate-700">
              <span className="font-medium">From the Arogya team:</span> {r.statusNote}
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  )
}
