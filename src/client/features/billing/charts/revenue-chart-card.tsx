import type { ReactNode } from 'react'
import { Card, CardContent, CardHeader } from '@/client/components/ui/card'
import { Skeleton } from '@/client/components/ui/skeleton'

export const revenueTitle = 'Revenue (last 12 months)'

/** The chart's card (no recharts in here, so the skeleton loads with the page). */
export function RevenueCard({ children, note }: { children: ReactNode; note?: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <h2 id="revenue-chart-title" className="text-lg leading-tight font-semibold">
          {revenueTitle}
        </h2>
        {note ? <p className="text-sm text-slate-600">{note}</p> : null}
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  )
}

export function RevenueChartSkeleton() {
  return (
    <RevenueCard>
      <div aria-busy="true">
        <Skeleton className="h-64 w-full" />
        <span className="sr-only">Loading the revenue chart…</span>
      </div>
    </RevenueCard>
  )
}
