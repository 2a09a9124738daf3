import { Paperclip } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Textarea } from '@/client/components/ui/input'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { formatDate, formatTime } from '@/shared/dates'
import {
  categoryLabels,
  COMMENT_MAX,
  REOPEN_DAYS,
  type SupportTicketDetail,
} from '@/shared/schemas/support-tickets'
import { useAddComment, useReopenTicket, useTicket } from '../api/support-tickets'
import { TicketPriorityBadge, TicketStatusBadge } from './ticket-badges'

const when = (iso: string) => `${formatDate(iso)}, ${formatTime(iso)}`
const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`

function errorText(error: unknown): string {
  return error instanceof ApiError ? error.serverMessage : String(error)
}

function CommentForm({ ticket }: { ticket: SupportTicketDetail }) {
  const [body, setBody] = useState('')
  const [error, setError] = useState<string | undefined>()
  const add = useAddComment(ticket.id)
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!body.trim()) return setError('Comment is required')
    setError(undefined)
    try {
      await add.mutateAsync(body)
      setBody('')
      toast.success('Comment added')
    } catch (err) {
      toast.error('Failed to add comment', errorText(err))
    }
  }
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-2">
      <Field id="ticket-comment" label="Add a comment" error={error}>
        <Textarea
          id="ticket-comment"
          rows={3}
          maxLength={COMMENT_MAX}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? 'ticket-comment-error' : undefined}
        />
      </Field>
      <div className="flex justify-end">
        <Button type="submit" loading={add.isPending} loadingText="Sending...">
          Send Comment
        </Button>
      </div>
    </form>
  )
}

function TicketBody({ ticket }: { ticket: SupportTicketDetail }) {
  const reopen = useReopenTicket(ticket.id)
  const doReopen = async () => {
    try {
      await reopen.mutateAsync()
      toast.success('Ticket reopened')
    } catch (err) {
      toast.error('Failed to reopen ticket', errorText(err))
    }
  }
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap gap-2">
        <TicketStatusBadge status={ticket.status} />
        <TicketPriorityBadge priority={ticket.priority} />
        <span className="text-sm text-slate-600">{categoryLabels[ticket.category]}</span>
      </div>
      <p className="text-sm text-slate-600">
        Submitted {when(ticket.createdAt)}
        {ticket.createdBy ? ` by ${ticket.createdBy}` : ''}
      </p>
      <p className="text-sm whitespace-pre-wrap">{ticket.description}</p>
      {ticket.resolutionNotes ? (
        <div className="rounded-md bg-green-50 p-3 text-sm text-green-900">
          <p className="font-medium">Resolution</p>
          <p className="whitespace-pre-wrap">{ticket.resolutionNotes}</p>
        </div>
      ) : null}
      {ticket.canReopen ? (
        <div className="flex flex-wrap items-center gap-3">
          <Button variant="outline" loading={reopen.isPending} onClick={() => void doReopen()}>
            Reopen Ticket
          </Button>
          <span className="text-xs text-slate-500">
            A resolved ticket can be reopened for {REOPEN_DAYS} days.
          </span>
        </div>
      ) : null}
      <section aria-labelledby="ticket-files" className="space-y-2">
        <h3 id="ticket-files" className="font-semibold">
          Attachments
        </h3>
        {ticket.attachments.length === 0 ? (
          <p className="text-sm text-slate-600">No attachments.</p>
        ) : (
          <ul className="space-y-1">
            {ticket.attachments.map((a) => (
              <li key={a.id} className="flex items-center gap-2 text-sm">
                <Paperclip className="size-4 shrink-0" aria-hidden="true" />
                <a className="text-brand-700 underline" href={a.url} download={a.name}>
                  {a.name}
                </a>
                <span className="text-slate-500">({sizeText(a.size)})</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="ticket-thread" className="space-y-3">
        <h3 id="ticket-thread" className="font-semibold">
          Comments
        </h3>
        {ticket.comments.length === 0 ? (
          <p className="text-sm text-slate-600">No comments yet.</p>
        ) : (
          <ol className="space-y-3">
            {ticket.comments.map((c) => (
              <li
                key={c.id}
                className={
                  c.side === 'platform'
                    ? 'rounded-md border border-brand-200 bg-brand-50 p-3'
                    : 'rounded-md border border-slate-200 p-3'
                }
              >
                <p className="text-xs text-slate-600">
                  <span className="font-medium text-slate-800">{c.author}</span> ·{' '}
                  {when(c.createdAt)}
                </p>
                <p className="mt-1 text-sm whitespace-pre-wrap">{c.body}</p>
              </li>
            ))}
          </ol>
        )}
        {ticket.status === 'closed' ? (
          <p className="text-sm text-slate-600">This ticket is closed.</p>
        ) : (
          <CommentForm ticket={ticket} />
        )}
      </section>
    </div>
  )
}

export function TicketDetailDialog({
  ticketId,
  subject,
  onClose,
}: {
  ticketId: string | null
  subject: string
  onClose: () => void
}) {
  const query = useTicket(ticketId)
  return (
    <Dialog open={Boolean(ticketId)} onOpenChange={(o) => (o ? null : onClose())} title={subject}>
      {query.isPending ? (
        <div className="space-y-3" aria-busy="true" aria-label="Loading ticket">
          <Skeleton className="h-5 w-40" />
          <Skeleton className="h-20 w-full" />
        </div>
      ) : query.isError ? (
        <InlineLoadError
          message="The ticket could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : (
        <TicketBody ticket={query.data} />
      )}
    </Dialog>
  )
}
