import type { ReactNode } from 'react'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { Skeleton } from '@/client/components/ui/skeleton'

export const perDayTitle = 'Leads per day (last 30 days)'
export const funnelTitle = 'Lead funnel'

/** The two chart cards, side by side on wide screens and stacked on phones. */
export function ChartsGrid({ children }: { children: ReactNode }) {
  return (
    <section aria-label="Lead charts" className="grid min-w-0 gap-4 lg:grid-cols-2">
      {children}
    </section>
  )
}

/** The cards' shape while the chart code or the figures load (no recharts in here). */
export function LeadChartsSkeleton() {
  return (
    <ChartsGrid>
      {[perDayTitle, funnelTitle].map((title) => (
        <Card key={title} aria-busy="true">
          <CardHeader>
            <CardTitle>{title}</CardTitle>
          </CardHeader>
          <CardContent>
            <Skeleton className="h-72 w-full" />
            <span className="sr-only">Loading {title.toLowerCase()}…</span>
          </CardContent>
        </Card>
      ))}
    </ChartsGrid>
  )
}
