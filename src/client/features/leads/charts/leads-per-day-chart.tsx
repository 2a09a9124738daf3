import { useId } from 'react'
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { leadSourceLabels, type LeadTrends } from '@/shared/schemas/leads'
import { ChartFigures } from './chart-figures'
import { activeSources, type DayRow, sourceColors, toDayRows } from './chart-data'
import { perDayTitle } from './lead-charts-skeleton'

const count = new Intl.NumberFormat('en-IN')

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
          <p className="text-sm text-slate-600">{count.format(total)} leads in the last 30 days</p>
        ) : null}
      </CardHeader>
      <CardContent>
        {total === 0 ? (
          <p className="flex h-64 items-center justify-center rounded-md bg-slate-50 text-slate-600">
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
                {rows.at(-1)?.longLabel}; the figures are in the table below.
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
                  labelFormatter={(_label, payload) =>
                    (payload[0]?.payload as DayRow | undefined)?.longLabel
                  }
                />
                <Legend iconType="square" iconSize={10} wrapperStyle={{ fontSize: 12 }} />
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
