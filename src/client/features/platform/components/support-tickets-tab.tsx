import { type FormEvent, useState } from 'react'
import { plural } from '@/shared/plural'
import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent, CardHeader } from '@/client/components/ui/card'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { NativeSelect, Textarea } from '@/client/components/ui/input'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiError } from '@/client/lib/api-client'
import { useUser } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { formatDate } from '@/shared/dates'
import {
  type AdminSupportTicket,
  categoryLabels,
  platformTransitions,
  priorityLabels,
  statusLabels,
  ticketStatuses,
  type TicketStatus,
} from '@/shared/schemas/support-tickets'
import {
  type TicketFilter,
  useAdminTicket,
  useAdminTickets,
  useTicketAction,
  useTicketSummary,
} from '../api/support-tickets'

const errorText = (e: unknown) => (e instanceof ApiError ? e.serverMessage : String(e))

/** The Super Admin Dashboard's count of open support tickets by age (issue 28). */
export function OpenTicketsCard() {
  const query = useTicketSummary()
  const s = query.data?.open
  const cells = [
    ['Under 1 day', s?.underOneDay],
    ['1–3 days', s?.oneToThreeDays],
    ['Over 3 days', s?.overThreeDays],
  ] as const
  return (
    <Card>
      <CardHeader>
        <h2 className="text-lg leading-tight font-semibold">Open support tickets by age</h2>
      </CardHeader>
      <CardContent>
        {query.isError ? (
          <InlineLoadError
            message="Ticket counts could not be loaded."
            onRetry={() => void query.refetch()}
          />
        ) : (
          <dl className="grid grid-cols-3 gap-3 text-center">
            {cells.map(([label, n]) => (
              <div key={label} className="rounded-md bg-slate-50 p-2">
                <dt className="text-xs text-slate-600">{label}</dt>
                <dd className="text-xl font-semibold">{n ?? '–'}</dd>
              </div>
            ))}
          </dl>
        )}
      </CardContent>
    </Card>
  )
}

function ManageTicket({ ticket }: { ticket: AdminSupportTicket }) {
  const detail = useAdminTicket(ticket)
  const action = useTicketAction(ticket)
  const me = useUser().data
  const current = detail.data?.status ?? ticket.status
  const next = platformTransitions[current]
  const [status, setStatus] = useState<TicketStatus | ''>('')
  const [notes, setNotes] = useState('')
  const [reply, setReply] = useState('')
  const run = async (a: Parameters<typeof action.mutateAsync>[0], done: string) => {
    try {
      await action.mutateAsync(a)
      toast.success(done)
      return true
    } catch (e) {
      toast.error('Failed to update the ticket', errorText(e))
      return false
    }
  }
  const move = async (e: FormEvent) => {
    e.preventDefault()
    if (!status) return
    const ok = await run(
      { kind: 'status', status, resolutionNotes: notes.trim() || undefined },
      'Ticket status updated',
    )
    if (ok) setStatus('')
  }
  const send = async (e: FormEvent) => {
    e.preventDefault()
    if (!reply.trim()) return
    if (await run({ kind: 'comment', body: reply }, 'Reply sent')) setReply('')
  }
  if (detail.isPending) return <Skeleton className="h-32 w-full" />
  if (detail.isError)
    return (
      <InlineLoadError
        message="The ticket could not be loaded."
        onRetry={() => void detail.refetch()}
      />
    )
  const t = detail.data
  return (
    <div className="space-y-4 text-sm">
      <p className="text-slate-600">
        {t.hospitalName} · {categoryLabels[t.category]} · {priorityLabels[t.priority]} priority ·{' '}
        {statusLabels[t.status]} · submitted {formatDate(t.createdAt)}
        {t.createdBy ? ` by ${t.createdBy}` : ''}
      </p>
      <p className="whitespace-pre-wrap">{t.description}</p>
      {t.attachments.length ? (
        <ul aria-label="Attachments" className="space-y-1">
          {t.attachments.map((a) => (
            <li key={a.id}>
              <a className="text-brand-700 underline" href={a.url} download={a.name}>
                {a.name}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <span>Assigned to: {t.assignedToName ?? 'nobody'}</span>
        {me && t.assignedTo !== me.id ? (
          <Button
            size="sm"
            variant="outline"
            onClick={() =>
              void run({ kind: 'assign', assignedTo: me.id }, 'Ticket assigned to you')
            }
          >
            Assign to me
          </Button>
        ) : null}
      </div>
      {next.length ? (
        <form onSubmit={(e) => void move(e)} className="space-y-2">
          <Field id="admin-ticket-status" label="Move to">
            <NativeSelect
              id="admin-ticket-status"
              value={status}
              onChange={(e) => setStatus(e.target.value as TicketStatus | '')}
            >
              <option value="">Choose a status</option>
              {next.map((s) => (
                <option key={s} value={s}>
                  {statusLabels[s]}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field id="admin-ticket-notes" label="Resolution notes" hint="Required to resolve">
            <Textarea
              id="admin-ticket-notes"
              rows={2}
              value={notes}
              onChange={(e) => setNotes(e.target.value)}
            />
          </Field>
          <Button type="submit" size="sm" disabled={!status} loading={action.isPending}>
            Update Status
          </Button>
        </form>
      ) : null}
      <ol className="space-y-2">
        {t.comments.map((c) => (
          <li key={c.id} className="rounded-md border border-slate-200 p-2">
            <p className="text-xs text-slate-600">
              {c.author} · {formatDate(c.createdAt)}
            </p>
            <p className="whitespace-pre-wrap">{c.body}</p>
          </li>
        ))}
      </ol>
      <form onSubmit={(e) => void send(e)} className="space-y-2">
        <Field id="admin-ticket-reply" label="Reply to the hospital">
          <Textarea
            id="admin-ticket-reply"
            rows={2}
            value={reply}
            onChange={(e) => setReply(e.target.value)}
          />
        </Field>
        <Button type="submit" size="sm" variant="outline" loading={action.isPending}>
          Send Reply
        </Button>
      </form>
    </div>
  )
}

/** Super Admin → Support: every hospital's tickets, assign, move status, reply. */
export function SupportTicketsTab() {
  const [filter, setFilter] = useState<TicketFilter>('open')
  const [open, setOpen] = useState<AdminSupportTicket | null>(null)
  const query = useAdminTickets(filter)
  return (
    <div className="space-y-4">
      <Field id="admin-ticket-filter" label="Status">
        <NativeSelect
          id="admin-ticket-filter"
          value={filter}
          onChange={(e) => setFilter(e.target.value as TicketFilter)}
          className="max-w-xs"
        >
          <option value="all">All</option>
          {ticketStatuses.map((s) => (
            <option key={s} value={s}>
              {statusLabels[s]}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {query.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : query.isError ? (
        <InlineLoadError
          message="Support tickets could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : query.data.length === 0 ? (
        <p className="text-sm text-slate-600">No support tickets with this status.</p>
      ) : (
        <ul className="space-y-3">
          {query.data.map((t) => (
            <li
              key={`${t.hospitalId}/${t.id}`}
              className="rounded-lg border border-slate-200 bg-white p-3"
            >
              <div className="flex flex-wrap items-start justify-between gap-2">
                <button
                  type="button"
                  className="min-w-0 text-left font-semibold hover:underline"
                  onClick={() => setOpen(t)}
                >
                  {t.subject}
                </button>
                <div className="flex flex-wrap gap-2">
                  <Badge variant="secondary">{statusLabels[t.status]}</Badge>
                  <Badge variant={t.priority === 'urgent' ? 'destructive' : 'blue'}>
                    {priorityLabels[t.priority]}
                  </Badge>
                </div>
              </div>
              <p className="mt-1 text-xs text-slate-600">
                {t.hospitalName} · {formatDate(t.createdAt)} · {plural(t.commentCount, 'comment')}
                {t.assignedToName ? ` · ${t.assignedToName}` : ' · unassigned'}
              </p>
            </li>
          ))}
        </ul>
      )}
      <Dialog
        open={Boolean(open)}
        onOpenChange={(o) => (o ? null : setOpen(null))}
        title={open?.subject ?? 'Support ticket'}
      >
        {open ? <ManageTicket ticket={open} /> : null}
      </Dialog>
    </div>
  )
}
