import { Building2, IndianRupee, ListTodo, Users } from 'lucide-react'
import type { ReactNode } from 'react'
import { Card, CardContent } from '@/client/components/ui/card'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { formatMoney } from '@/shared/money'
import type { PlatformStats } from '@/shared/schemas/platform'
import { usePlatformStats } from '../api/get-platform-stats'

const count = new Intl.NumberFormat('en-IN')

function Figure({ label, icon, value }: { label: string; icon: ReactNode; value: ReactNode }) {
  return (
    <Card>
      <CardContent className="flex items-start justify-between gap-3 p-4 sm:p-5">
        <div className="min-w-0">
          <p className="text-sm font-medium text-slate-600">{label}</p>
          {/* Four cards a row from lg: one size smaller there, so ₹ lakhs fit beside the icon. */}
          <div className="mt-1 text-xl font-bold whitespace-nowrap tabular-nums sm:text-2xl lg:text-xl 2xl:text-2xl">
            {value}
          </div>
        </div>
        <span aria-hidden="true" className="shrink-0 rounded-md bg-slate-100 p-2 text-slate-600">
          {icon}
        </span>
      </CardContent>
    </Card>
  )
}

/** The four platform figures (spec section 2): hospitals, users, revenue, pending tasks. */
export function StatCards() {
  const stats = usePlatformStats()
  const value = (render: (s: PlatformStats) => string) =>
    stats.data ? (
      render(stats.data)
    ) : stats.isError ? (
      <span aria-label="Not available">—</span>
    ) : (
      <Skeleton className="mt-1 h-7 w-24" />
    )
  return (
    <section aria-label="Platform figures" className="space-y-2">
      <div className="grid grid-cols-1 gap-3 min-[400px]:grid-cols-2 lg:grid-cols-4">
        <Figure
          label="Total Hospitals"
          icon={<Building2 className="size-5" />}
          value={value((s) => count.format(s.totalHospitals))}
        />
        <Figure
          label="Active Users"
          icon={<Users className="size-5" />}
          value={value((s) => count.format(s.activeUsers))}
        />
        <Figure
          label="Monthly Revenue"
          icon={<IndianRupee className="size-5" />}
          value={value((s) => formatMoney(s.monthlyRevenue))}
        />
        <Figure
          label="Pending Tasks"
          icon={<ListTodo className="size-5" />}
          value={value((s) => count.format(s.pendingTasks))}
        />
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
