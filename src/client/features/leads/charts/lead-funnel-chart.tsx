import { useId } from 'react'
import { Bar, BarChart, Cell, LabelList, XAxis, YAxis } from 'recharts'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import type { LeadTrends } from '@/shared/schemas/leads'
import { ChartFigures } from './chart-figures'
import { type FunnelRow, stageColors, toFunnelRows } from './chart-data'
import { funnelTitle } from './lead-charts-skeleton'

const count = new Intl.NumberFormat('en-IN')
const barLabel = (r: FunnelRow) => `${count.format(r.count)} · ${r.pct}%`

/**
 * 'Lead funnel': how many of the hospital's leads reached each stage, as horizontal bars with
 * the count and the share of the first stage (the rule is in the leadTrends contract).
 */
export function LeadFunnelChart({ funnel }: { funnel: LeadTrends['funnel'] }) {
  const titleId = useId()
  const rows = toFunnelRows(funnel)
  const first = rows[0]?.label ?? 'New'
  return (
    <Card>
      <CardHeader>
        <CardTitle id={titleId}>{funnelTitle}</CardTitle>
        <p className="text-sm text-slate-600">All leads, by the furthest stage reached</p>
      </CardHeader>
      <CardContent>
        {funnel.new === 0 ? (
          <p className="flex h-72 items-center justify-center rounded-md bg-slate-50 text-slate-600">
            No leads yet
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
                {rows.map((r) => `${r.label}: ${count.format(r.count)} (${r.pct}%)`).join(', ')}.
              </p>
              <BarChart
                responsive
                accessibilityLayer={false}
                layout="vertical"
                data={rows.map((r) => ({ ...r, text: barLabel(r) }))}
                style={{ width: '100%', height: '100%' }}
                margin={{ top: 4, right: 104, bottom: 4, left: 0 }}
                barCategoryGap="18%"
              >
                <XAxis type="number" hide domain={[0, 'dataMax']} />
                <YAxis
                  type="category"
                  dataKey="label"
                  width={76}
                  tickLine={false}
                  axisLine={false}
                  // Palette variables, so dark mode turns them light (fixed colours stayed dark on a dark card).
                  tick={{ fontSize: 13, fill: 'var(--color-slate-700)' }}
                />
                <Bar
                  dataKey="count"
                  isAnimationActive={false}
                  radius={[0, 4, 4, 0]}
                  minPointSize={2}
                >
                  {rows.map((r) => (
                    <Cell key={r.stage} fill={stageColors[r.stage]} />
                  ))}
                  <LabelList
                    dataKey="text"
                    position="right"
                    style={{ fontSize: 13, fill: 'var(--color-slate-900)' }}
                  />
                </Bar>
              </BarChart>
            </div>
            <ChartFigures
              caption={funnelTitle}
              head={['Stage', 'Leads', `% of ${first}`]}
              rows={rows.map((r) => ({
                key: r.stage,
                cells: [r.label, count.format(r.count), `${r.pct}%`],
              }))}
            />
          </>
        )}
      </CardContent>
    </Card>
  )
}
