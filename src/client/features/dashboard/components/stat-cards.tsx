import { CalendarClock, Sparkles, TrendingUp, Users } from 'lucide-react'
import { Card, CardContent } from '@/client/components/ui/card'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import type { Stats } from '@/shared/schemas/leads'
import { useStats } from '../api/get-stats'

const count = new Intl.NumberFormat('en-IN')

const cards = [
  { label: 'Total Leads', icon: Users, value: (s: Stats) => s.totalLeads },
  { label: 'New Leads', icon: Sparkles, value: (s: Stats) => s.newLeads },
  { label: 'Follow-ups', icon: CalendarClock, value: (s: Stats) => s.followUps },
  { label: 'Converted', icon: TrendingUp, value: (s: Stats) => s.converted },
] as const

/** The home page's four figures (spec: values default to 0). */
export function StatCards() {
  const stats = useStats()
  return (
    <section aria-label="Lead statistics" className="space-y-2">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {cards.map((c) => (
          <Card key={c.label} data-testid="home-stat">
            <CardContent className="flex items-start justify-between gap-2 p-4">
              <div className="min-w-0">
                <p className="text-sm font-medium text-slate-600">{c.label}</p>
                {stats.isPending ? (
                  <Skeleton className="mt-2 h-7 w-12" />
                ) : (
                  <p className="mt-1 text-2xl font-bold tabular-nums">
                    {count.format(stats.data ? c.value(stats.data) : 0)}
                  </p>
                )}
              </div>
              <c.icon className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
            </CardContent>
          </Card>
        ))}
      </div>
      {stats.isError ? (
        <InlineLoadError
          message="Failed to load the figures."
          onRetry={() => void stats.refetch()}
        />
      ) : null}
    </section>
  )
}
