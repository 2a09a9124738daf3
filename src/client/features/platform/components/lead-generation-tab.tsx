import { useState } from 'react'
import {
  creativeSummary,
  LeadGenFigures,
} from '@/client/components/lead-generation/lead-gen-figures'
import { LeadGenStatusBadge } from '@/client/components/lead-generation/lead-gen-status-badge'
import { Button } from '@/client/components/ui/button'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Input, NativeSelect } from '@/client/components/ui/input'
import { Skeleton } from '@/client/components/ui/skeleton'
import { toast } from '@/client/lib/toast'
import { formatDate } from '@/shared/dates'
import {
  type LeadGenStatus,
  leadGenNextStatuses,
  leadGenStatuses,
  leadGenStatusLabels,
} from '@/shared/lead-generation'
import type { AdminLeadGenRequest } from '@/shared/schemas/lead-generation'
import {
  type LeadGenFilter,
  useAdminLeadGenRequests,
  useMoveLeadGenRequest,
} from '../api/lead-generation'
import { serverMessage } from './form-issues'

/** The button that moves a request to a status. */
const moveLabels: Record<LeadGenStatus, string> = {
  requested: 'Requested',
  approved: 'Approve',
  active: 'Activate',
  paused: 'Pause',
  completed: 'Complete',
}

function RequestRow({ request }: { request: AdminLeadGenRequest }) {
  const [note, setNote] = useState('')
  const move = useMoveLeadGenRequest()
  const next = leadGenNextStatuses[request.campaignStatus]
  const noteId = `lead-gen-note-${request.id}`
  const go = (status: LeadGenStatus) =>
    move.mutate(
      { id: request.id, input: { status, note: note.trim() || null } },
      {
        onSuccess: () => {
          toast.success(
            'Request updated',
            `${request.hospitalName}: now ${leadGenStatusLabels[status].toLowerCase()}. The hospital's admins were emailed.`,
          )
          setNote('')
        },
        onError: (error) => toast.error('Failed to update the request', serverMessage(error)),
      },
    )
  return (
    <li className="space-y-3 p-3 sm:p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium">{request.hospitalName}</p>
          <p className="text-xs text-slate-600">Requested {formatDate(request.createdAt)}</p>
        </div>
        <LeadGenStatusBadge status={request.campaignStatus} />
      </div>
      <LeadGenFigures request={request} />
      <p className="text-sm text-slate-700">{creativeSummary(request)}</p>
      {request.notes ? (
        <p className="text-sm whitespace-pre-line text-slate-700">{request.notes}</p>
      ) : null}
      {request.statusNote ? (
        <p className="text-sm text-slate-600">Last note: {request.statusNote}</p>
      ) : null}
      {next.length > 0 ? (
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1 basis-56">
            <label htmlFor={noteId} className="mb-1 block text-xs font-medium text-slate-700">
              Note to the hospital (optional)
            </label>
            <Input
              id={noteId}
              value={note}
              maxLength={1000}
              onChange={(e) => setNote(e.target.value)}
              placeholder="e.g. Ads go live on Monday"
            />
          </div>
          {next.map((status) => (
            <Button
              key={status}
              size="sm"
              variant={status === 'paused' ? 'outline' : 'default'}
              aria-label={`${moveLabels[status]}: ${request.hospitalName}, requested ${formatDate(request.createdAt)}`}
              loading={move.isPending && move.variables.input.status === status}
              disabled={move.isPending}
              onClick={() => go(status)}
            >
              {moveLabels[status]}
            </Button>
          ))}
        </div>
      ) : null}
    </li>
  )
}

/** Lead Generation: every hospital's campaign requests, moved through their states with a note. */
export function LeadGenerationTab() {
  const [status, setStatus] = useState<LeadGenFilter>('all')
  const query = useAdminLeadGenRequests(status)
  const items = query.data?.items ?? []
  return (
    <div className="space-y-4">
      <NativeSelect
        aria-label="Show requests"
        value={status}
        onChange={(e) => setStatus(e.target.value as LeadGenFilter)}
        className="w-full sm:w-44"
      >
        <option value="all">All requests</option>
        {leadGenStatuses.map((s) => (
          <option key={s} value={s}>
            {leadGenStatusLabels[s]}
          </option>
        ))}
      </NativeSelect>
      {query.isError ? (
        <InlineLoadError
          message="Failed to load lead-generation requests."
          onRetry={() => void query.refetch()}
        />
      ) : query.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
          No lead-generation requests to show.
        </p>
      ) : (
        <ul
          className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white"
          aria-label="Lead-generation requests"
        >
          {items.map((r) => (
            <RequestRow key={r.id} request={r} />
          ))}
        </ul>
      )}
    </div>
  )
}
