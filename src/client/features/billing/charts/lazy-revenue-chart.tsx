import { usePrefetchQuery } from '@tanstack/react-query'
import { Component, lazy, type ReactNode, Suspense } from 'react'
import { getRevenueQueryOptions } from '../api/get-revenue'
import { RevenueCard, RevenueChartSkeleton } from './revenue-chart-card'

/** recharts and the chart come in their own chunk, on first render (ENGINEERING.md: Charts). */
const RevenueChart = lazy(() => import('./revenue-chart'))

/** A chunk that fails to load (offline, or a new release removed it) says so. */
class ChunkErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override render() {
    if (!this.state.failed) return this.props.children
    return (
      <RevenueCard>
        <p role="alert" className="text-sm text-red-800">
          The chart could not be loaded. Reload the page to try again.
        </p>
      </RevenueCard>
    )
  }
}

/** The revenue chart, loaded lazily; its figures are requested alongside the chart's code. */
export function LazyRevenueChart() {
  usePrefetchQuery(getRevenueQueryOptions())
  return (
    <ChunkErrorBoundary>
      <Suspense fallback={<RevenueChartSkeleton />}>
        <RevenueChart />
      </Suspense>
    </ChunkErrorBoundary>
  )
}
