import { AlertTriangle, Clock, FileText, IndianRupee } from 'lucide-react'
import type { ReactNode } from 'react'
import { Card, CardContent } from '@/client/components/ui/card'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { formatMoney } from '@/shared/money'
import { useInvoiceSummary } from '../api/get-invoice-summary'

const count = new Intl.NumberFormat('en-IN')

function Figure({ label, icon, value }: { label: string; icon: ReactNode; value: ReactNode }) {
  return (
    <Card>
      <CardContent className="flex items-start justify-between gap-3 p-4 sm:p-5">
        <div className="min-w-0">
          <p className="text-sm font-medium text-slate-600">{label}</p>
          <div className="mt-1 text-xl font-bold tabular-nums sm:text-2xl">{value}</div>
        </div>
        <span aria-hidden="true" className="shrink-0 rounded-md bg-slate-100 p-2 text-slate-600">
          {icon}
        </span>
      </CardContent>
    </Card>
  )
}

/**
 * The spec's four cards over all the hospital's invoices: Total Revenue (paid), Pending and
 * Overdue (what is still owed on them) and Total Invoices (the count).
 */
export function SummaryCards() {
  const summary = useInvoiceSummary()
  const value = (render: (s: NonNullable<typeof summary.data>) => string) =>
    summary.data ? (
      render(summary.data)
    ) : summary.isError ? (
      <span aria-label="Not available">—</span>
    ) : (
      <Skeleton className="mt-1 h-7 w-28" />
    )
  return (
    <section aria-label="Invoice summary" className="space-y-2">
      <div className="grid grid-cols-1 gap-3 min-[400px]:grid-cols-2 lg:grid-cols-4">
        <Figure
          label="Total Revenue"
          icon={<IndianRupee className="size-5" />}
          value={value((s) => formatMoney(s.totalRevenue))}
        />
        <Figure
          label="Pending"
          icon={<Clock className="size-5" />}
          value={value((s) => formatMoney(s.pending))}
        />
        <Figure
          label="Overdue"
          icon={<AlertTriangle className="size-5" />}
          value={value((s) => formatMoney(s.overdue))}
        />
        <Figure
          label="Total Invoices"
          icon={<FileText className="size-5" />}
          value={value((s) => count.format(s.totalInvoices))}
        />
      </div>
      {summary.isError ? (
        <InlineLoadError
          message="Failed to load the invoice summary."
          onRetry={() => void summary.refetch()}
        />
      ) : null}
    </section>
  )
}
