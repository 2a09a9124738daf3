import { Clock, HelpCircle, LifeBuoy, MessageSquare, Paperclip, Plus } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'wouter'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent, CardHeader } from '@/client/components/ui/card'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { paths } from '@/client/paths'
import { formatDate } from '@/shared/dates'
import { SUPPORT_RESPONSE_TIME } from '@/shared/plans'
import { categoryLabels, type SupportTicket } from '@/shared/schemas/support-tickets'
import { useTickets } from './api/support-tickets'
import { SubmitTicketDialog } from './components/submit-ticket-dialog'
import { TicketPriorityBadge, TicketStatusBadge } from './components/ticket-badges'
import { TicketDetailDialog } from './components/ticket-detail-dialog'

function QuickHelp() {
  return (
    <Card>
      <CardHeader>
        <h2 className="text-lg leading-tight font-semibold flex items-center gap-2">
          <HelpCircle className="size-5" aria-hidden="true" /> Quick Help
        </h2>
      </CardHeader>
      <CardContent className="space-y-2 text-sm text-slate-700">
        <p>
          Many questions are answered on the{' '}
          <Link className="text-brand-700 underline" href={paths.faqs}>
            FAQ page
          </Link>
          .
        </p>
        <p className="flex items-center gap-2">
          <Clock className="size-4 shrink-0" aria-hidden="true" />
          Our support team responds within {SUPPORT_RESPONSE_TIME.replace('-', '–')}.
        </p>
      </CardContent>
    </Card>
  )
}

function TicketRow({ ticket, onOpen }: { ticket: SupportTicket; onOpen: () => void }) {
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <button
          type="button"
          onClick={onOpen}
          className="min-w-0 text-left font-semibold text-brand-800 hover:underline"
        >
          {ticket.subject}
        </button>
        <div className="flex flex-wrap gap-2">
          <TicketStatusBadge status={ticket.status} />
          <TicketPriorityBadge priority={ticket.priority} />
        </div>
      </div>
      <p className="mt-1 line-clamp-2 text-sm text-slate-700">{ticket.description}</p>
      <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
        <span>{categoryLabels[ticket.category]}</span>
        <span>Submitted {formatDate(ticket.createdAt)}</span>
        {ticket.createdBy ? <span>by {ticket.createdBy}</span> : null}
        <span className="flex items-center gap-1">
          <MessageSquare className="size-3" aria-hidden="true" />
          {ticket.commentCount} comment{ticket.commentCount === 1 ? '' : 's'}
        </span>
        {ticket.attachments.length ? (
          <span className="flex items-center gap-1">
            <Paperclip className="size-3" aria-hidden="true" />
            {ticket.attachments.length} attachment{ticket.attachments.length === 1 ? '' : 's'}
          </span>
        ) : null}
      </p>
    </li>
  )
}

/**
 * /support (spec section 2, Support Tickets): a submit dialog, a quick-help card and the ticket
 * list with an empty state. Every staff role submits; admins see all the hospital's tickets.
 */
export function SupportPage() {
  const query = useTickets()
  const [submitting, setSubmitting] = useState(false)
  const [open, setOpen] = useState<SupportTicket | null>(null)

  return (
    <div className="min-w-0 space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Support Tickets</h1>
        <Button onClick={() => setSubmitting(true)}>
          <Plus aria-hidden="true" /> New Ticket
        </Button>
      </div>
      <QuickHelp />
      <section aria-label="Your tickets" className="space-y-3">
        {query.isPending ? (
          <div className="space-y-3" aria-busy="true" aria-label="Loading tickets">
            <Skeleton className="h-24 w-full" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : query.isError ? (
          <InlineLoadError
            message="Support tickets could not be loaded."
            onRetry={() => void query.refetch()}
          />
        ) : query.data.length === 0 ? (
          <Card>
            <CardContent className="flex flex-col items-center gap-3 py-10 text-center">
              <LifeBuoy className="size-10 text-slate-400" aria-hidden="true" />
              <h2 className="text-lg font-semibold">No support tickets yet</h2>
              <p className="text-sm text-slate-600">
                Something not working, or a question about Arogya? Our team is here to help.
              </p>
              <Button onClick={() => setSubmitting(true)}>Submit Your First Ticket</Button>
            </CardContent>
          </Card>
        ) : (
          <ul className="space-y-3">
            {query.data.map((t) => (
              <TicketRow key={t.id} ticket={t} onOpen={() => setOpen(t)} />
            ))}
          </ul>
        )}
      </section>
      <SubmitTicketDialog open={submitting} onOpenChange={setSubmitting} />
      <TicketDetailDialog
        ticketId={open?.id ?? null}
        subject={open?.subject ?? 'Support ticket'}
        onClose={() => setOpen(null)}
      />
    </div>
  )
}
