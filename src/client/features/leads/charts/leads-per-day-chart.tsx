import { useId } from 'react'
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { leadSourceLabels, leadSources } from '@/shared/lead-labels'
import type { LeadTrends } from '@/shared/schemas/leads'
import { ChartFigures } from './chart-figures'
import { activeSources, type DayRow, sourceColors, toDayRows } from './chart-data'
import { perDayTitle } from './lead-charts-skeleton'

const count = new Intl.NumberFormat('en-IN')

/** The hovered day: its date, total and the sources that brought leads that day. */
function DayTooltip({ row }: { row: DayRow | undefined }) {
  if (!row) return null
  return (
    <div className="rounded-md border border-slate-200 bg-white px-3 py-2 text-sm shadow-md">
      <p className="font-semibold">{row.longLabel}</p>
      <p className="text-slate-600">
        {count.format(row.total)} {row.total === 1 ? 'lead' : 'leads'}
      </p>
      <ul className="mt-1 space-y-0.5">
        {leadSources
          .filter((s) => row[s] > 0)
          .map((s) => (
            <li key={s} className="flex items-center gap-2">
              <span
                aria-hidden="true"
                className="size-2.5 rounded-sm"
                style={{ backgroundColor: sourceColors[s] }}
              />
              {leadSourceLabels[s]}: <span className="tabular-nums">{count.format(row[s])}</span>
            </li>
          ))}
      </ul>
    </div>
  )
}

/** 'Leads per day (last 30 days)': one stacked bar per day, a colour per source. */
export function LeadsPerDayChart({ days }: { days: LeadTrends['days'] }) {
  const titleId = useId()
  const rows = toDayRows(days)
  const sources = activeSources(days)
  const total = rows.reduce((sum, r) => sum + r.total, 0)
  return (
    <Card>
      <CardHeader>
        <CardTitle id={titleId}>{perDayTitle}</CardTitle>
        {total > 0 ? (
          <p className="text-sm text-slate-600">
            {count.format(total)} {total === 1 ? 'lead' : 'leads'} in the last 30 days
          </p>
        ) : null}
      </CardHeader>
      <CardContent>
        {total === 0 ? (
          <p className="flex h-72 items-center justify-center rounded-md bg-slate-50 text-slate-600">
            No leads in the last 30 days
          </p>
        ) : (
          <>
            <div
              role="img"
              aria-labelledby={titleId}
              aria-describedby={`${titleId}-desc`}
              className="h-72 w-full min-w-0"
            >
              <p id={`${titleId}-desc`} className="sr-only">
                Stacked bars of the leads created each day by source, from {rows[0]?.longLabel} to{' '}
                {rows.at(-1)?.longLabel}; the figures are under Show the figures.
              </p>
              <BarChart
                responsive
                accessibilityLayer={false}
                data={rows}
                style={{ width: '100%', height: '100%' }}
                margin={{ top: 4, right: 4, bottom: 0, left: -16 }}
              >
                <CartesianGrid vertical={false} stroke="#e2e8f0" />
                <XAxis
                  dataKey="label"
                  tickLine={false}
                  interval="preserveStartEnd"
                  minTickGap={12}
                  tick={{ fontSize: 12, fill: '#475569' }}
                />
                <YAxis
                  allowDecimals={false}
                  tickLine={false}
                  axisLine={false}
                  width={40}
                  tick={{ fontSize: 12, fill: '#475569' }}
                />
                <Tooltip
                  cursor={{ fill: '#f1f5f9' }}
                  content={(p) => (
                    <DayTooltip
                      row={p.active ? (p.payload?.[0]?.payload as DayRow | undefined) : undefined}
                    />
                  )}
                />
                <Legend
                  iconType="square"
                  iconSize={10}
                  itemSorter={null}
                  wrapperStyle={{ fontSize: 12 }}
                  formatter={(value: string) => <span className="text-slate-700">{value}</span>}
                />
                {sources.map((s) => (
                  <Bar
                    key={s}
                    dataKey={s}
                    name={leadSourceLabels[s]}
                    stackId="leads"
                    fill={sourceColors[s]}
                    isAnimationActive={false}
                  />
                ))}
              </BarChart>
            </div>
            <ChartFigures
              caption={`${perDayTitle}, by source`}
              head={['Day', ...sources.map((s) => leadSourceLabels[s]), 'Total']}
              rows={rows.map((r) => ({
                key: r.date,
                cells: [
                  r.longLabel,
                  ...sources.map((s) => count.format(r[s])),
                  count.format(r.total),
                ],
              }))}
            />
          </>
        )}
      </CardContent>
    </Card>
  )
}
