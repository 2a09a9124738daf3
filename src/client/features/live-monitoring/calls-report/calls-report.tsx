import { Download, PhoneCall } from 'lucide-react'
import { useState } from 'react'
import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent, CardHeader } from '@/client/components/ui/card'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { dispositionLabel } from '@/client/features/calls/call-format'
import type { CallOutcome } from '@/shared/calls'
import type { CallsReport as Report } from '@/shared/schemas/calls-report'
import { formatTalk } from '../activity-text'
import { callsReportUrl, useCallsReport } from './calls-report-api'
import { presetRange, type ReportPreset, reportPresets } from './report-range'

const count = new Intl.NumberFormat('en-IN')

const outcomeLabels: Record<CallOutcome, string> = {
  answered: 'Answered',
  'no-answer': 'No answer',
  busy: 'Busy',
  failed: 'Failed',
  canceled: 'Cancelled',
}

/** '3 Dec' for a yyyy-mm-dd day (the hospital's, as the server counted it). */
function dayLabel(date: string): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString('en-IN', {
    day: 'numeric',
    month: 'short',
    weekday: 'short',
    timeZone: 'UTC',
  })
}

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-slate-200 bg-white p-3">
      <p className="text-xs text-slate-600">{label}</p>
      <p className="text-xl font-semibold text-slate-900 tabular-nums">{value}</p>
      {hint ? <p className="text-xs text-slate-600">{hint}</p> : null}
    </div>
  )
}

type Row = { calls: number; answered: number; missed: number; talkSeconds: number }

function RowFigures({ r }: { r: Row }) {
  return (
    <span className="text-sm text-slate-700 tabular-nums">
      {count.format(r.calls)} {r.calls === 1 ? 'call' : 'calls'}, {count.format(r.answered)}{' '}
      answered, {count.format(r.missed)} missed, talk {formatTalk(r.talkSeconds)}
    </span>
  )
}

function ReportBody({ report }: { report: Report }) {
  const t = report.totals
  const f = report.firstResponse
  if (t.calls === 0 && f.newLeads === 0)
    return (
      <div className="flex flex-col items-center gap-2 py-10 text-center text-slate-600">
        <PhoneCall className="size-10 text-slate-400" aria-hidden="true" />
        <p>No calls in this period.</p>
      </div>
    )
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-2 gap-2 lg:grid-cols-4">
        <Figure
          label="Calls"
          value={count.format(t.calls)}
          hint={`${count.format(t.outbound)} made, ${count.format(t.inbound)} received`}
        />
        <Figure label="Answered" value={count.format(t.answered)} />
        <Figure label="Missed" value={count.format(t.missed)} />
        <Figure label="Talk time" value={formatTalk(t.talkSeconds)} />
      </div>
      <Card>
        <CardHeader>
          <h3 className="text-base font-semibold">First response to new leads</h3>
        </CardHeader>
        <CardContent className="text-sm text-slate-700">
          {f.newLeads === 0 ? (
            <p>No new leads in this period.</p>
          ) : (
            <p>
              {count.format(f.called)} of {count.format(f.newLeads)} new leads called,{' '}
              {count.format(f.calledWithinHour)} within an hour
              {f.medianMinutes !== null
                ? `; half were called within ${formatTalk(f.medianMinutes * 60)}`
                : ''}
              .
            </p>
          )}
        </CardContent>
      </Card>
      <section aria-labelledby="calls-by-staff" className="space-y-2">
        <h3 id="calls-by-staff" className="text-base font-semibold">
          By staff member
        </h3>
        {report.byStaff.length === 0 ? (
          <p className="text-sm text-slate-600">No calls made or received.</p>
        ) : (
          <ul className="space-y-2">
            {report.byStaff.map((s) => (
              <li
                key={s.userId}
                className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 rounded-lg border border-slate-200 bg-white p-3"
              >
                <span className="font-medium text-slate-900">{s.userName}</span>
                <RowFigures r={s} />
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="calls-by-day" className="space-y-2">
        <h3 id="calls-by-day" className="text-base font-semibold">
          By day
        </h3>
        <ul className="space-y-1">
          {report.byDay.map((d) => (
            <li key={d.date} className="flex flex-wrap justify-between gap-x-3 text-sm">
              <span className="font-medium text-slate-800">{dayLabel(d.date)}</span>
              <RowFigures r={d} />
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="calls-by-outcome" className="space-y-2">
        <h3 id="calls-by-outcome" className="text-base font-semibold">
          Outcomes and dispositions
        </h3>
        <ul className="flex flex-wrap gap-2" aria-label="Outcomes">
          {report.byOutcome.map((o) => (
            <li key={o.outcome}>
              <Badge variant="outline">
                {outcomeLabels[o.outcome]}: {count.format(o.calls)}
              </Badge>
            </li>
          ))}
        </ul>
        {report.byDisposition.length ? (
          <ul className="flex flex-wrap gap-2" aria-label="Dispositions">
            {report.byDisposition.map((d) => (
              <li key={d.disposition}>
                <Badge variant="blue">
                  {dispositionLabel(d.disposition)}: {count.format(d.calls)}
                </Badge>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    </div>
  )
}

/**
 * Live Monitoring → Calls report (issue 41, admins): the range's calls per staff member, day,
 * outcome and disposition, the first-response time to new leads, and the CSV download.
 */
export function CallsReport({ now, timeZone }: { now: Date; timeZone: string }) {
  const [preset, setPreset] = useState<ReportPreset>('7')
  const range = presetRange(preset, now, timeZone)
  const query = useCallsReport(range)
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div role="group" aria-label="Period" className="flex flex-wrap gap-1">
          {reportPresets.map((p) => (
            <Button
              key={p.id}
              variant={preset === p.id ? 'default' : 'outline'}
              size="sm"
              aria-pressed={preset === p.id}
              onClick={() => setPreset(p.id)}
            >
              {p.label}
            </Button>
          ))}
        </div>
        <Button asChild variant="outline" size="sm">
          <a href={callsReportUrl(range, true)} download>
            <Download aria-hidden="true" />
            Export CSV
          </a>
        </Button>
      </div>
      {query.isPending ? (
        <div className="space-y-2" aria-busy="true" aria-label="Loading the calls report">
          <Skeleton className="h-20 w-full" />
          <Skeleton className="h-32 w-full" />
        </div>
      ) : query.isError ? (
        <InlineLoadError
          message="The calls report could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : (
        <ReportBody report={query.data} />
      )}
    </div>
  )
}
