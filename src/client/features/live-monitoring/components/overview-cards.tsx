import type { UseQueryResult } from '@tanstack/react-query'
import { Mail, PhoneCall, PhoneOutgoing, Users } from 'lucide-react'
import { Card, CardContent } from '@/client/components/ui/card'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import type { OverviewResponse } from '@/shared/schemas/live-monitoring'

const count = new Intl.NumberFormat('en-IN')

const cards: { label: string; icon: typeof Users; value: (o: OverviewResponse) => number }[] = [
  { label: 'Team Online', icon: Users, value: (o) => o.teamOnline },
  { label: 'Ongoing Calls', icon: PhoneCall, value: (o) => o.ongoingCalls },
  { label: 'Calls Today', icon: PhoneOutgoing, value: (o) => o.callsToday },
  { label: 'Messages Sent', icon: Mail, value: (o) => o.messagesSent },
]

/** Spec section 2: Team Online, Ongoing Calls, Calls Today, Messages Sent (today, hospital time). */
export function OverviewCards({ query }: { query: UseQueryResult<OverviewResponse> }) {
  return (
    <section aria-label="Today at a glance" className="space-y-2">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {cards.map((c) =>
          query.isPending ? (
            <Card key={c.label} aria-hidden="true">
              <CardContent className="space-y-2 p-4">
                <Skeleton className="h-4 w-24" />
                <Skeleton className="h-7 w-14" />
              </CardContent>
            </Card>
          ) : (
            <Card key={c.label}>
              <CardContent className="flex items-start justify-between gap-2 p-4">
                <div className="min-w-0">
                  <h2 className="text-sm font-medium text-slate-600">{c.label}</h2>
                  <p className="mt-1 text-2xl font-bold tabular-nums">
                    {query.data ? count.format(c.value(query.data)) : '—'}
                  </p>
                </div>
                <c.icon className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
              </CardContent>
            </Card>
          ),
        )}
      </div>
      {query.isPending ? (
        <span className="sr-only" role="status">
          Loading the figures
        </span>
      ) : null}
      {query.isError ? (
        <InlineLoadError
          message="Failed to load the figures."
          onRetry={() => void query.refetch()}
        />
      ) : null}
    </section>
  )
}
