import type { UseQueryResult } from '@tanstack/react-query'
import {
  Activity as ActivityIcon,
  CalendarPlus,
  LogIn,
  LogOut,
  Mail,
  MessageSquare,
  PhoneOff,
  PhoneOutgoing,
  UserPlus,
} from 'lucide-react'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { formatAgo } from '@/shared/dates'
import { type ActivityType, activityLabels } from '@/shared/live-monitoring'
import type { ActivitiesResponse, Activity } from '@/shared/schemas/live-monitoring'
import { activityActor, activityPhrase } from '../activity-text'
import { formatWhen } from '../when'

const icons: Record<ActivityType, { icon: typeof Mail; tone: string }> = {
  call_start: { icon: PhoneOutgoing, tone: 'bg-blue-100 text-blue-800' },
  call_end: { icon: PhoneOff, tone: 'bg-slate-100 text-slate-700' },
  email_sent: { icon: Mail, tone: 'bg-purple-100 text-purple-800' },
  sms_sent: { icon: MessageSquare, tone: 'bg-teal-100 text-teal-800' },
  whatsapp_sent: { icon: MessageSquare, tone: 'bg-green-100 text-green-800' },
  login: { icon: LogIn, tone: 'bg-green-100 text-green-800' },
  logout: { icon: LogOut, tone: 'bg-slate-100 text-slate-700' },
  patient_added: { icon: UserPlus, tone: 'bg-brand-100 text-brand-800' },
  appointment_scheduled: { icon: CalendarPlus, tone: 'bg-yellow-100 text-yellow-800' },
}

function ActivityRow({ a, now, timeZone }: { a: Activity; now: Date; timeZone?: string }) {
  const { icon: Icon, tone } = icons[a.activityType]
  return (
    <li className="flex items-start gap-3 py-3">
      <span
        className={`inline-flex size-8 shrink-0 items-center justify-center rounded-full ${tone}`}
        title={activityLabels[a.activityType]}
      >
        <Icon className="size-4" aria-hidden="true" />
        <span className="sr-only">{activityLabels[a.activityType]}:</span>
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-sm text-slate-800">
          <span className="font-semibold">{activityActor(a)}</span> {activityPhrase(a)}
        </p>
        <p className="text-xs text-slate-600">
          <time dateTime={a.timestamp} title={formatWhen(a.timestamp, now, timeZone)}>
            {formatAgo(a.timestamp, now)}
          </time>
        </p>
      </div>
    </li>
  )
}

/** Spec section 2, Live Activity: the 20 latest items, newest first, in a scrollable list. */
export function ActivityFeed({
  query,
  now,
  timeZone,
}: {
  query: UseQueryResult<ActivitiesResponse>
  now: Date
  timeZone?: string | undefined
}) {
  if (query.isPending)
    return (
      <div className="space-y-2" aria-busy="true" aria-label="Loading the activity">
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    )
  if (query.isError)
    return (
      <InlineLoadError
        message="The activity could not be loaded."
        onRetry={() => void query.refetch()}
      />
    )
  if (query.data.activities.length === 0)
    return (
      <div className="flex flex-col items-center gap-2 py-10 text-center text-slate-600">
        <ActivityIcon className="size-10 text-slate-400" aria-hidden="true" />
        <p>No activity yet today</p>
      </div>
    )
  return (
    // A keyboard user can scroll the list too (it takes focus).
    <section
      aria-label="Latest activity"
      tabIndex={0}
      className="max-h-[32rem] overflow-y-auto rounded-lg border border-slate-200 bg-white px-4 focus-visible:ring-2 focus-visible:ring-brand-600/40 focus-visible:outline-none"
    >
      <ol className="divide-y divide-slate-200">
        {query.data.activities.map((a) => (
          <ActivityRow key={a.id} a={a} now={now} timeZone={timeZone} />
        ))}
      </ol>
    </section>
  )
}
