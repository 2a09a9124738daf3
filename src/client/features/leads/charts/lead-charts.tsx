import { Button } from '@/client/components/ui/button'
import { useLeadTrends } from './api/get-lead-trends'
import { LeadFunnelChart } from './lead-funnel-chart'
import { ChartsGrid, LeadChartsSkeleton } from './lead-charts-skeleton'
import { LeadsPerDayChart } from './leads-per-day-chart'

/**
 * The dashboard's lead charts (issue 8): leads per day by source and the funnel. The default
 * export, so it loads lazily in its own chunk with recharts (lazy-lead-charts.tsx).
 */
export default function LeadCharts() {
  const trends = useLeadTrends()
  if (trends.isPending) return <LeadChartsSkeleton />
  if (trends.isError)
    return (
      <section aria-label="Lead charts">
        <p
          role="alert"
          className="flex flex-wrap items-center gap-2 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800"
        >
          Failed to load the charts.
          <Button
            variant="link"
            size="sm"
            className="h-auto p-0"
            onClick={() => void trends.refetch()}
          >
            Try again
          </Button>
        </p>
      </section>
    )
  return (
    <ChartsGrid>
      <LeadsPerDayChart days={trends.data.days} />
      <LeadFunnelChart funnel={trends.data.funnel} />
    </ChartsGrid>
  )
}
