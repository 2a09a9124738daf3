import { usePrefetchQuery } from '@tanstack/react-query'
import { ChartColumnBig } from 'lucide-react'
import { Component, lazy, type ReactNode, Suspense, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { getLeadTrendsQueryOptions } from './api/get-lead-trends'
import { LeadChartsSkeleton } from './lead-charts-skeleton'

/** recharts and the charts come in their own chunk, on first render (ENGINEERING.md: Charts). */
const LeadCharts = lazy(() => import('./lead-charts'))

/** A chunk that fails to load (offline, or a new release removed it) says so, not a blank page. */
class ChunkErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override render() {
    if (!this.state.failed) return this.props.children
    return (
      <section aria-label="Lead charts">
        <p
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800"
        >
          The charts could not be loaded. Reload the page to try again.
        </p>
      </section>
    )
  }
}

/** Wide enough for the charts to open by themselves (the sidebar's breakpoint). */
const WIDE = '(min-width: 768px)'

/**
 * The dashboard's lead charts, loaded lazily. On a wide screen they open at once; on a phone they
 * start folded behind 'Show lead charts', so the leads list comes first and a phone on a slow
 * network does not fetch the chart library (about 150 KB) until asked (docs/decisions/038).
 */
export function LazyLeadCharts() {
  const [open, setOpen] = useState(() => window.matchMedia(WIDE).matches)
  if (!open)
    return (
      <section aria-label="Lead charts">
        <Card>
          <CardContent className="flex flex-wrap items-center justify-between gap-3 py-4">
            <p className="text-sm text-slate-600">
              Leads per day and the lead funnel for the last 30 days.
            </p>
            <Button variant="outline" aria-expanded={false} onClick={() => setOpen(true)}>
              <ChartColumnBig aria-hidden="true" />
              Show lead charts
            </Button>
          </CardContent>
        </Card>
      </section>
    )
  return <OpenLeadCharts />
}

/** The figures are requested at once, alongside the chart code; the skeleton shows until both are there. */
function OpenLeadCharts() {
  usePrefetchQuery(getLeadTrendsQueryOptions())
  return (
    <ChunkErrorBoundary>
      <Suspense fallback={<LeadChartsSkeleton />}>
        <LeadCharts />
      </Suspense>
    </ChunkErrorBoundary>
  )
}
