import { CalendarClock } from 'lucide-react'
import { useHospitalSchedule } from '@/client/components/appointments/api/get-hospital-schedule'
import { Badge } from '@/client/components/ui/badge'
import { Spinner } from '@/client/components/ui/spinner'
import { formatDate, formatTime } from '@/shared/dates'
import type { Call } from '@/shared/schemas/calls'
import { useCalls } from '../api/calls'
import {
  CALL_STATUS_LABELS,
  dispositionLabel,
  followUpOf,
  formatCallBack,
  formatTimer,
} from '../call-format'

/** How many of the contact's calls the section lists (newest first). */
const SHOWN = 5

function CallRow({ call, timeZone }: { call: Call; timeZone: string }) {
  const how =
    call.status === 'completed'
      ? `Answered · ${formatTimer(call.durationSeconds ?? 0)}`
      : CALL_STATUS_LABELS[call.status]
  return (
    <li className="min-w-0 space-y-0.5 border-b border-slate-100 pb-2 text-sm last:border-b-0">
      <p className="flex flex-wrap items-center gap-2">
        <span className="font-medium">
          {formatDate(call.startedAt, timeZone)}, {formatTime(call.startedAt, timeZone)}
        </span>
        <span className="text-slate-700">{how}</span>
        {call.sandbox ? <Badge variant="yellow">Sandbox</Badge> : null}
      </p>
      {call.disposition ? (
        <p className="text-slate-700 [overflow-wrap:anywhere]">
          Outcome: {dispositionLabel(call.disposition)}
          {call.callBackAt ? ` ${formatCallBack(call.callBackAt, timeZone)}` : ''}
          {call.dispositionNote ? ` · ${call.dispositionNote}` : ''}
        </p>
      ) : null}
    </li>
  )
}

/**
 * A lead's or patient's calls (issue 41): its follow-up ("Call back: Fri 4 Dec, 11:00", from
 * the newest call's disposition) and the last few calls with how each went.
 */
export function ContactCalls({ of }: { of: { kind: 'lead' | 'patient'; id: string } }) {
  const { timeZone } = useHospitalSchedule()
  const query = useCalls(of.kind === 'lead' ? { leadId: of.id } : { patientId: of.id })
  if (query.isPending) {
    return (
      <div className="flex justify-center py-2">
        <Spinner label="Loading calls" className="size-5" />
      </div>
    )
  }
  if (query.isError) {
    return (
      <p role="alert" className="text-sm text-red-700">
        The calls could not be loaded. Please try again.
      </p>
    )
  }
  const calls = query.data.calls
  const followUp = followUpOf(calls)
  return (
    <div className="space-y-3">
      {followUp ? (
        <p
          data-testid="call-follow-up"
          className="flex items-center gap-2 rounded-md border border-amber-300 bg-amber-50 p-2 text-sm font-medium text-amber-950"
        >
          <CalendarClock aria-hidden="true" className="size-4 shrink-0" />
          Call back: {formatCallBack(followUp, timeZone)}
        </p>
      ) : null}
      {calls.length === 0 ? (
        <p className="text-sm text-slate-600">No calls yet.</p>
      ) : (
        <ul className="space-y-2">
          {calls.slice(0, SHOWN).map((call) => (
            <CallRow key={call.id} call={call} timeZone={timeZone} />
          ))}
        </ul>
      )}
    </div>
  )
}
