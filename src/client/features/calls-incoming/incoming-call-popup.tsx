import { useQueryClient } from '@tanstack/react-query'
import { PhoneIncoming, X } from 'lucide-react'
import { type KeyboardEvent, useId } from 'react'
import { Link } from 'wouter'
import { useStreamEvent } from '@/client/components/messaging/use-message-events'
import { Button } from '@/client/components/ui/button'
import { Skeleton } from '@/client/components/ui/skeleton'
import { useUser } from '@/client/lib/current-user'
import { paths } from '@/client/paths'
import type { CurrentUser } from '@/shared/schemas/auth'
import { incomingCardKey, useIncomingCard } from './api'
import { contactHref, incomingTitle, shortDayTime, whoLine } from './incoming-format'
import { dismissIncoming, showIncoming, useShownIncoming } from './incoming-store'

/**
 * Incoming calls' pop-up (issue 41): an `incoming_call` event for a call that rings the signed-in
 * member (the ring group) shows a card at the screen's edge, "Sunita Kulkarni, patient
 * SMH-000123, next appointment 3 Dec", with a link to the patient or lead. The card is a
 * non-modal dialog (it takes no focus from what the member is typing), announced once through
 * an assertive live region; Dismiss (or Escape inside it) closes it. `call` events keep its
 * state current: answered, ended, missed.
 */
export function IncomingCallPopup({ user }: { user: CurrentUser }) {
  if (user.hospitalId === null || user.isSuperAdmin) return null
  return <IncomingCalls userId={user.id} />
}

function IncomingCalls({ userId }: { userId: string }) {
  const queryClient = useQueryClient()
  const shown = useShownIncoming()
  useStreamEvent('incoming_call', (data) => {
    try {
      const event = JSON.parse(data) as { id?: unknown; ringUserIds?: unknown }
      if (
        typeof event.id === 'string' &&
        Array.isArray(event.ringUserIds) &&
        event.ringUserIds.includes(userId)
      )
        showIncoming(event.id)
    } catch {
      // not JSON: ignored
    }
  })
  useStreamEvent('call', (data) => {
    try {
      const event = JSON.parse(data) as { id?: unknown }
      if (typeof event.id === 'string' && shown.includes(event.id))
        void queryClient.invalidateQueries({ queryKey: incomingCardKey(event.id) })
    } catch {
      // not JSON: ignored
    }
  })
  if (!shown.length) return null
  return (
    <div className="pointer-events-none fixed inset-x-2 bottom-2 z-50 flex flex-col gap-2 sm:right-4 sm:left-auto sm:w-96">
      {shown.map((id) => (
        <IncomingCallCardView key={id} id={id} />
      ))}
    </div>
  )
}

function IncomingCallCardView({ id }: { id: string }) {
  const card = useIncomingCard(id)
  const timeZone = useUser().data?.timeZone ?? 'Asia/Kolkata'
  const titleId = useId()
  const bodyId = useId()
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') dismissIncoming(id)
  }
  const data = card.data
  const title = data ? incomingTitle(data.status) : 'Incoming call'
  const href = data ? contactHref(data, paths) : null
  return (
    <section
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onKeyDown={onKeyDown}
      data-testid="incoming-call"
      className="pointer-events-auto rounded-lg border border-brand-200 bg-white p-4 shadow-lg [overflow-wrap:anywhere]"
    >
      <div className="flex items-start gap-3">
        <PhoneIncoming className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
        <div className="min-w-0 flex-1 space-y-1">
          <h2 id={titleId} className="text-sm font-semibold text-slate-900">
            {title}
            {data?.sandbox ? <span className="font-normal text-slate-600"> (sandbox)</span> : null}
          </h2>
          <div id={bodyId} className="space-y-0.5 text-sm text-slate-700">
            {card.isPending ? (
              <>
                <p className="sr-only">Loading the caller…</p>
                <Skeleton className="h-10 w-full" />
              </>
            ) : card.isError || !data ? (
              <p>
                The caller’s details could not be loaded.{' '}
                <button
                  type="button"
                  className="text-brand-700 underline"
                  onClick={() => void card.refetch()}
                >
                  Try again
                </button>
              </p>
            ) : (
              <>
                <p className="text-base font-semibold text-slate-900">{data.name}</p>
                <p>
                  {whoLine(data)}
                  {data.nextAppointmentAt
                    ? `, next appointment ${shortDayTime(data.nextAppointmentAt, timeZone)}`
                    : ''}
                </p>
                {data.phone && data.phone !== data.name ? (
                  <p className="text-slate-600">{data.phone}</p>
                ) : null}
                {/* Announced once when the details arrive (the card itself takes no focus). */}
                {data.status === 'ringing' ? (
                  <p role="alert" className="sr-only">
                    Incoming call from {data.name}, {whoLine(data)}
                  </p>
                ) : null}
              </>
            )}
          </div>
          {href && data ? (
            <Link
              href={href}
              onClick={() => dismissIncoming(id)}
              className="inline-block pt-1 text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
            >
              Open {data.patientId ? 'patient' : 'lead'}
            </Link>
          ) : null}
        </div>
        <Button
          variant="ghost"
          size="icon"
          className="-mt-2 -mr-2 shrink-0"
          aria-label={`Dismiss ${title.toLowerCase()}${data ? ` from ${data.name}` : ''}`}
          onClick={() => dismissIncoming(id)}
        >
          <X aria-hidden="true" />
        </Button>
      </div>
    </section>
  )
}
