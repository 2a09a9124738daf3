import { AlertTriangle, Clock, FileText, IndianRupee } from 'lucide-react'
import type { ReactNode } from 'react'
import { Card, CardContent } from '@/client/components/ui/card'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { useInvoiceSummary } from '../api/get-invoice-summary'
import { Money } from './money'

const count = new Intl.NumberFormat('en-IN')

/**
 * A figure card: the label and icon on one row, the figure under them across the whole card, so
 * a crore-sized amount fits one line at 1280 px (four cards a row) without wrapping mid-number.
 */
function Figure({ label, icon, value }: { label: string; icon: ReactNode; value: ReactNode }) {
  return (
    <Card>
      <CardContent className="p-4 sm:p-5">
        <div className="flex items-start justify-between gap-3">
          <p className="min-w-0 text-sm font-medium text-slate-600">{label}</p>
          <span aria-hidden="true" className="shrink-0 rounded-md bg-slate-100 p-2 text-slate-600">
            {icon}
          </span>
        </div>
        <div className="mt-1 text-xl font-bold tabular-nums sm:text-2xl lg:text-xl xl:text-2xl">
          {value}
        </div>
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
  const value = (render: (s: NonNullable<typeof summary.data>) => ReactNode) =>
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
          value={value((s) => (
            <Money paise={s.totalRevenue} />
          ))}
        />
        <Figure
          label="Pending"
          icon={<Clock className="size-5" />}
          value={value((s) => (
            <Money paise={s.pending} />
          ))}
        />
        <Figure
          label="Overdue"
          icon={<AlertTriangle className="size-5" />}
          value={value((s) => (
            <Money paise={s.overdue} />
          ))}
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
