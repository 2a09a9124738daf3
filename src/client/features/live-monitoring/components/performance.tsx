import type { UseQueryResult } from '@tanstack/react-query'
import { Target } from 'lucide-react'
import { Badge } from '@/client/components/ui/badge'
import { Card, CardContent, CardHeader } from '@/client/components/ui/card'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { type DailyTargets, scoreBadge } from '@/shared/live-monitoring'
import { roleLabels } from '@/shared/roles'
import type { DailySummary, DailySummaryResponse } from '@/shared/schemas/live-monitoring'
import { formatMinutes, formatTalk } from '../activity-text'

const count = new Intl.NumberFormat('en-IN')

interface Metric {
  label: string
  /** The same metric in a sentence: '12 of 100 calls'. */
  noun: string
  target: keyof DailyTargets
  value: (s: DailySummary) => number
  format?: (n: number) => string
}

const metrics: Metric[] = [
  { label: 'Calls', noun: 'calls', target: 'calls', value: (s) => s.callsMade },
  { label: 'Emails', noun: 'emails', target: 'emails', value: (s) => s.emailsSent },
  { label: 'SMS', noun: 'SMS', target: 'sms', value: (s) => s.smsSent },
  {
    label: 'Leads contacted',
    noun: 'leads contacted',
    target: 'leadsContacted',
    value: (s) => s.leadsContacted,
  },
  {
    label: 'Appointments',
    noun: 'appointments',
    target: 'appointments',
    value: (s) => s.appointmentsScheduled,
  },
  {
    label: 'Working time',
    noun: 'working time',
    target: 'workingMinutes',
    value: (s) => s.workingHours,
    format: formatMinutes,
  },
]

const show = (m: Metric, n: number) => (m.format ? m.format(n) : count.format(n))

function ProgressBar({
  label,
  value,
  max,
  text,
}: {
  label: string
  value: number
  max: number
  text: string
}) {
  const percent = max > 0 ? Math.min(100, Math.round((value / max) * 100)) : 100
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={text}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div className="h-full rounded-full bg-brand-600" style={{ width: `${percent}%` }} />
    </div>
  )
}

/** The team's totals against each target times the people counted. */
function TeamTargets({ data }: { data: DailySummaryResponse }) {
  const people = data.summaries.length
  const t = data.targets
  return (
    <Card>
      <CardHeader>
        <h2 className="flex items-center gap-2 text-lg leading-tight font-semibold">
          <Target className="size-5" aria-hidden="true" /> Daily targets
        </h2>
        <p className="text-sm text-slate-600">
          Per person: {t.calls} calls, {t.emails} emails, {t.sms} SMS, {t.leadsContacted} leads
          contacted, {t.appointments} appointments, {formatMinutes(t.workingMinutes)}.
          {people > 1 ? ` Totals for ${people} people.` : ''}
        </p>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        {metrics.map((m) => {
          const actual = data.summaries.reduce((sum, s) => sum + m.value(s), 0)
          const target = t[m.target] * people
          const text = `${show(m, actual)} of ${show(m, target)}`
          return (
            <div key={m.label} className="space-y-1">
              <div className="flex flex-wrap justify-between gap-x-2 text-sm">
                <span className="font-medium text-slate-800">{m.label}</span>
                <span className="text-slate-600 tabular-nums">{text}</span>
              </div>
              <ProgressBar label={`Team ${m.noun}`} value={actual} max={target} text={text} />
            </div>
          )
        })}
      </CardContent>
    </Card>
  )
}

function UserRow({ s, targets }: { s: DailySummary; targets: DailyTargets }) {
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-semibold text-slate-900">{s.userName}</p>
          <p className="text-sm text-slate-600">{roleLabels[s.role]}</p>
        </div>
        <Badge variant={scoreBadge(s.performanceScore)}>
          Score {s.performanceScore}
          <span className="sr-only"> of 100</span>
        </Badge>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3 lg:grid-cols-6">
        {metrics.map((m) => (
          <div key={m.label} className="min-w-0">
            <dt className="text-xs text-slate-600">{m.label}</dt>
            <dd className="font-medium text-slate-900 tabular-nums">
              {show(m, m.value(s))}
              <span className="font-normal text-slate-600"> / {show(m, targets[m.target])}</span>
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-sm text-slate-600">
        Calls answered {count.format(s.callsAnswered)}, missed {count.format(s.callsMissed)}, talk
        time {formatTalk(s.talkSeconds)}
      </p>
    </li>
  )
}

/**
 * Spec section 2, Performance: the day's targets as progress bars for the team, then each
 * member's figures and score (badge per spec section 9). The server sends a non-admin only their
 * own row, and the screen says so.
 */
export function Performance({
  query,
  seesAll,
}: {
  query: UseQueryResult<DailySummaryResponse>
  seesAll: boolean
}) {
  if (query.isPending)
    return (
      <div className="space-y-2" aria-busy="true" aria-label="Loading the performance">
        <Skeleton className="h-48 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    )
  if (query.isError)
    return (
      <InlineLoadError
        message="The performance could not be loaded."
        onRetry={() => void query.refetch()}
      />
    )
  const data = query.data
  return (
    <div className="space-y-4">
      {seesAll ? null : (
        <p className="rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700">
          Only your own performance is shown.
        </p>
      )}
      {data.summaries.length === 0 ? (
        <p className="py-6 text-center text-slate-600">No performance recorded yet today.</p>
      ) : (
        <>
          <TeamTargets data={data} />
          <section aria-labelledby="per-user-heading" className="space-y-2">
            <h2 id="per-user-heading" className="text-lg font-semibold">
              {seesAll ? 'By team member' : 'Your day'}
            </h2>
            <ul className="space-y-2">
              {[...data.summaries]
                .sort((a, b) => b.performanceScore - a.performanceScore)
                .map((s) => (
                  <UserRow key={s.userId} s={s} targets={data.targets} />
                ))}
            </ul>
          </section>
        </>
      )}
    </div>
  )
}
