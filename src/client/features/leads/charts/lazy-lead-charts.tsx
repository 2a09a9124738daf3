import { usePrefetchQuery } from '@tanstack/react-query'
import { Component, lazy, type ReactNode, Suspense } from 'react'
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

/**
 * The dashboard's lead charts, loaded lazily. The figures are requested at once, alongside the
 * chart code, not after it; the skeleton shows until both are there.
 */
export function LazyLeadCharts() {
  usePrefetchQuery(getLeadTrendsQueryOptions())
  return (
    <ChunkErrorBoundary>
      <Suspense fallback={<LeadChartsSkeleton />}>
        <LeadCharts />
      </Suspense>
    </ChunkErrorBoundary>
  )
}
