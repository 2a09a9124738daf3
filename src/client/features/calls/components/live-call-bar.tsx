import { useQueryClient } from '@tanstack/react-query'
import { PhoneCall, X } from 'lucide-react'
import { lazy, Suspense, useEffect, useState } from 'react'
import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { useLiveFallback, useStreamEvent } from '@/client/components/messaging/use-message-events'
import { ApiError } from '@/client/lib/api-client'
import { useUser } from '@/client/lib/current-user'
import type { Call } from '@/shared/schemas/calls'
import { callKey, invalidateAfterCall, useCall } from '../api/calls'
import { CALL_STATUS_LABELS, formatTimer, isLiveStatus, secondsSince } from '../call-format'
import { type ShownCall, showCall, useShownCall } from '../current-call'
import { DispositionDialog } from './disposition-dialog'

const AppointmentDialog = lazy(() =>
  import('@/client/components/appointments/appointment-dialog').then((m) => ({
    default: m.AppointmentDialog,
  })),
)

/** Polling while the event stream is down (fast), and a slow safety net while it is up. */
const POLL_FALLBACK_MS = 2_000
const POLL_SAFETY_MS = 10_000

/** The current time, ticking every second while `on`. */
function useNow(on: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!on) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [on])
  return now
}

/** "Connected · 0:42", "Call ended · answered · 2:05", "Call failed: <reason>". */
function statusLine(call: Call, now: number): string {
  const label = CALL_STATUS_LABELS[call.status]
  if (call.status === 'in-progress') {
    return `${label} · ${formatTimer(secondsSince(call.answeredAt ?? call.startedAt, now))}`
  }
  if (call.status === 'completed') {
    return `${label} · answered · ${formatTimer(call.durationSeconds ?? 0)}`
  }
  if (call.status === 'failed' && call.failureReason) return `${label}: ${call.failureReason}`
  return label
}

function Bar({ shown }: { shown: ShownCall }) {
  const queryClient = useQueryClient()
  const fallback = useLiveFallback()
  const me = useUser().data
  const query = useCall(shown.callId, fallback ? POLL_FALLBACK_MS : POLL_SAFETY_MS)
  const call = query.data
  const live = call ? isLiveStatus(call.status) : true
  const now = useNow(call?.status === 'in-progress')
  const [asking, setAsking] = useState<'auto' | 'open' | 'closed'>('auto')
  const [booking, setBooking] = useState(false)

  // Each 'call' event for this call: fetch it again (the event carries no names or times).
  useStreamEvent('call', (data) => {
    try {
      const event = JSON.parse(data) as { id?: unknown }
      if (event.id === shown.callId)
        void queryClient.invalidateQueries({ queryKey: callKey(shown.callId) })
    } catch {
      // not JSON: ignored
    }
  })

  // Once it has ended: the history, the contact's calls and the figures change.
  const ended = call && !live ? call.status : null
  useEffect(() => {
    if (ended && call) void invalidateAfterCall(queryClient, call)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per ending, not per refetch
  }, [ended, queryClient])

  // Gone (another hospital, or removed) or someone else's: nothing to show.
  const gone =
    (query.error instanceof ApiError && query.error.status === 404) ||
    (call && me && call.userId !== me.id)
  useEffect(() => {
    if (gone) showCall(null)
  }, [gone])

  if (booking) {
    const who = { id: shown.contact.id, name: shown.contact.name, phone: shown.contact.phone }
    return (
      <Suspense fallback={null}>
        <AppointmentDialog
          target={{
            kind: 'new',
            ...(shown.contact.kind === 'lead' ? { lead: who } : { patient: who }),
          }}
          onClose={() => {
            setBooking(false)
            showCall(null)
          }}
        />
      </Suspense>
    )
  }

  const dialogOpen =
    asking === 'open' || (asking === 'auto' && Boolean(call && !live && !call.disposition))

  return (
    <div
      role="region"
      aria-label="Call"
      className="fixed right-2 bottom-2 left-2 z-30 rounded-lg border border-brand-600/40 bg-white p-3 shadow-lg sm:left-auto sm:w-96"
    >
      <div className="flex items-start gap-3">
        <PhoneCall aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-700" />
        <div className="min-w-0 flex-1 space-y-1">
          <p className="flex flex-wrap items-center gap-2 text-sm font-semibold [overflow-wrap:anywhere]">
            <span className="min-w-0">Call with {shown.contact.name}</span>
            {call?.sandbox ? <Badge variant="yellow">Sandbox</Badge> : null}
          </p>
          <p
            role="status"
            aria-live="polite"
            className="text-sm text-slate-700"
            data-testid="call-status"
          >
            {call
              ? statusLine(call, now)
              : query.isError
                ? 'Call status unavailable'
                : 'Placing the call…'}
          </p>
          {live && call?.status !== 'in-progress' ? (
            <p className="text-xs text-slate-600">Your phone rings first, then the customer’s.</p>
          ) : null}
          {call && !live ? (
            <div className="flex flex-wrap gap-2 pt-1">
              <Button size="sm" onClick={() => setAsking('open')}>
                {call.disposition ? 'Change outcome' : 'Choose outcome'}
              </Button>
            </div>
          ) : null}
        </div>
        {call && !live ? (
          <Button
            variant="ghost"
            size="icon"
            className="size-8 shrink-0"
            aria-label="Close call"
            title="Close"
            onClick={() => showCall(null)}
          >
            <X aria-hidden="true" />
          </Button>
        ) : null}
      </div>
      {call && !live ? (
        <DispositionDialog
          call={call}
          name={shown.contact.name}
          open={dialogOpen}
          onOpenChange={(open) => setAsking(open ? 'open' : 'closed')}
          onSaved={(saved) => {
            setAsking('closed')
            if (saved.disposition === 'booked') setBooking(true)
            else showCall(null)
          }}
        />
      ) : null}
    </div>
  )
}

/**
 * The live call bar (issue 41), mounted once in the staff shell: the call this tab placed,
 * ringing → connected with a running timer → ended with its outcome, driven by the realtime
 * 'call' events (polling while the stream is down), then the disposition dialog.
 */
export function LiveCallBar() {
  const shown = useShownCall()
  return shown ? <Bar key={shown.callId} shown={shown} /> : null
}
