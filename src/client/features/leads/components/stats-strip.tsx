import { CalendarClock, Sparkles, TrendingUp, Users } from 'lucide-react'
import { Card, CardContent } from '@/client/components/ui/card'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import type { Stats } from '@/shared/schemas/leads'
import { useStats } from '../api/get-stats'
import { trendTexts } from '../lead-format'

const count = new Intl.NumberFormat('en-IN')

type Trend = keyof ReturnType<typeof trendTexts>

const cards: { label: string; icon: typeof Users; value: (s: Stats) => number; trend: Trend }[] = [
  { label: 'Total Leads', icon: Users, value: (s) => s.totalLeads, trend: 'total' },
  { label: 'New Leads', icon: Sparkles, value: (s) => s.newLeads, trend: 'newLeads' },
  { label: 'Converted', icon: TrendingUp, value: (s) => s.converted, trend: 'converted' },
  { label: 'Follow-ups Due', icon: CalendarClock, value: (s) => s.followUps, trend: 'followUps' },
]

/** Spec "Stats strip": four figures with their trend lines; four skeletons until they arrive. */
export function StatsStrip() {
  const stats = useStats()
  const trends = stats.data ? trendTexts(stats.data.trends) : null
  return (
    <section aria-label="Lead statistics" data-tour="stats" className="space-y-2">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {cards.map((c) =>
          stats.isPending ? (
            <Card key={c.label} data-testid="stat-skeleton" aria-hidden="true">
              <CardContent className="space-y-2 p-4">
                <Skeleton className="h-4 w-24" />
                <Skeleton className="h-7 w-14" />
                <Skeleton className="h-3 w-28" />
              </CardContent>
            </Card>
          ) : (
            <Card key={c.label} data-testid="stat-card">
              <CardContent className="flex items-start justify-between gap-2 p-4">
                <div className="min-w-0">
                  <h2 className="text-sm font-medium text-slate-600">{c.label}</h2>
                  <p className="mt-1 text-2xl font-bold tabular-nums">
                    {count.format(stats.data ? c.value(stats.data) : 0)}
                  </p>
                  <p className="mt-1 text-xs text-slate-600">{trends?.[c.trend] ?? '—'}</p>
                </div>
                <c.icon className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
              </CardContent>
            </Card>
          ),
        )}
      </div>
      {stats.isPending ? (
        <span className="sr-only" role="status">
          Loading statistics
        </span>
      ) : null}
      {stats.isError ? (
        <InlineLoadError
          message="Failed to load the figures."
          onRetry={() => void stats.refetch()}
        />
      ) : null}
    </section>
  )
}
