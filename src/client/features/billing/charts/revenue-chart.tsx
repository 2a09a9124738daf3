import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { formatMoney } from '@/shared/money'
import { useRevenue } from '../api/get-revenue'
import { RevenueCard, RevenueChartSkeleton, revenueTitle } from './revenue-chart-card'
import { type RevenueRow, shortRupees, toRevenueRows } from './revenue-data'
import { Money } from '../components/money'

function MonthTooltip({ row }: { row: RevenueRow | undefined }) {
  if (!row) return null
  return (
    <div className="rounded-md border border-slate-200 bg-white px-3 py-2 text-sm shadow-md">
      <p className="font-semibold">{row.longLabel}</p>
      <p>
        <Money paise={row.paid} /> paid
      </p>
    </div>
  )
}

/** The figures as a table under 'Show the figures' (screen readers, exact amounts). */
function RevenueTable({ rows }: { rows: readonly RevenueRow[] }) {
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer font-medium text-brand-700">Show the figures</summary>
      <div
        role="region"
        aria-label={`${revenueTitle}, by month`}
        tabIndex={0}
        className="mt-2 max-h-72 overflow-auto rounded-md border border-slate-200"
      >
        <table className="w-full border-collapse text-left tabular-nums">
          <caption className="sr-only">{revenueTitle}, paid per month</caption>
          <thead className="sticky top-0 bg-slate-50">
            <tr>
              <th scope="col" className="px-2 py-1.5 font-medium">
                Month
              </th>
              <th scope="col" className="px-2 py-1.5 text-right font-medium">
                Paid
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.month} className="border-t border-slate-100">
                <th scope="row" className="px-2 py-1 font-normal whitespace-nowrap">
                  {r.longLabel}
                </th>
                <td className="px-2 py-1 text-right">
                  <Money paise={r.paid} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  )
}

/**
 * Paid per month over the last 12 months (GET /api/invoices/revenue). The default export, so
 * recharts comes in its own chunk (lazy-revenue-chart.tsx).
 */
export default function RevenueChart() {
  const revenue = useRevenue()
  if (revenue.isPending) return <RevenueChartSkeleton />
  if (revenue.isError)
    return (
      <RevenueCard>
        <InlineLoadError
          message="Failed to load the revenue chart."
          onRetry={() => void revenue.refetch()}
        />
      </RevenueCard>
    )
  const rows = toRevenueRows(revenue.data)
  const total = rows.reduce((sum, r) => sum + r.paid, 0)
  return (
    <RevenueCard note={total > 0 ? `${formatMoney(total)} paid in the last 12 months` : null}>
      {total === 0 ? (
        <p className="flex h-40 items-center justify-center rounded-md bg-slate-50 text-slate-600">
          No payments in the last 12 months
        </p>
      ) : (
        <>
          <div
            role="img"
            aria-labelledby="revenue-chart-title"
            aria-describedby="revenue-chart-desc"
            className="h-64 w-full min-w-0"
          >
            <p id="revenue-chart-desc" className="sr-only">
              Bars of the amount paid each month from {rows[0]?.longLabel} to{' '}
              {rows.at(-1)?.longLabel}, <Money paise={total} /> in all; the figures are under Show
              the figures.
            </p>
            <BarChart
              responsive
              accessibilityLayer={false}
              data={rows}
              style={{ width: '100%', height: '100%' }}
              margin={{ top: 4, right: 4, bottom: 0, left: 0 }}
            >
              <CartesianGrid vertical={false} stroke="#e2e8f0" />
              <XAxis
                dataKey="label"
                tickLine={false}
                interval="preserveStartEnd"
                minTickGap={8}
                tick={{ fontSize: 12, fill: '#475569' }}
              />
              <YAxis
                tickLine={false}
                axisLine={false}
                width={52}
                tickFormatter={(v: number) => shortRupees(v)}
                tick={{ fontSize: 12, fill: '#475569' }}
              />
              <Tooltip
                cursor={{ fill: '#f1f5f9' }}
                content={(p) => (
                  <MonthTooltip
                    row={p.active ? (p.payload?.[0]?.payload as RevenueRow | undefined) : undefined}
                  />
                )}
              />
              <Bar dataKey="rupees" name="Paid" fill="#0f766e" isAnimationActive={false} />
            </BarChart>
          </div>
          <RevenueTable rows={rows} />
        </>
      )}
    </RevenueCard>
  )
}
