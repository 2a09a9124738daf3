import { Download, ListChecks, Plus } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { useCan } from '@/client/lib/current-user'
import { useOpenFromUrl } from '@/client/lib/use-open-from-url'
import { useDebouncedValue } from '@/client/lib/use-debounced-value'
import type { Invoice } from '@/shared/schemas/billing'
import { useHospitalBilling } from './api/get-hospital-billing'
import { exportCsvHref, type StatusFilter, useInvoices } from './api/get-invoices'
import { BillingToolbar } from './components/billing-toolbar'
import { CancelInvoiceDialog } from './components/cancel-invoice-dialog'
import { InvoiceDetailsDialog } from './components/invoice-details-dialog'
import { InvoicesResults } from './components/invoices-results'
import { MarkPaidDialog } from './components/mark-paid-dialog'
import { SummaryCards } from './components/summary-cards'
import { LazyRevenueChart } from './charts/lazy-revenue-chart'
import { NewInvoiceDialog } from './new-invoice/new-invoice-dialog'
import { ServicesDialog } from './services/services-dialog'

/**
 * /billing (spec section 2, Billing & Invoices): the four cards, the revenue chart, the status
 * filter and the invoice cards with Mark Paid, View Details, Download PDF and Cancel. Changes
 * (New Invoice, Mark Paid, Cancel, the catalogue) need billing:write and are hidden without it.
 */
export function BillingPage() {
  const [status, setStatus] = useState<StatusFilter>('all')
  const [searchText, setSearchText] = useState('')
  const search = useDebouncedValue(searchText.trim(), 250)
  const filter = { status, search }
  const query = useInvoices(filter)
  const canWrite = useCan('billing:write')
  const hospital = useHospitalBilling()
  const [creating, setCreating] = useState(false)
  useOpenFromUrl(canWrite, () => setCreating(true)) // ?new=1: the command palette's New Invoice
  const [managing, setManaging] = useState(false)
  const [viewing, setViewing] = useState<Invoice | null>(null)
  const [paying, setPaying] = useState<Invoice | null>(null)
  const [cancelling, setCancelling] = useState<Invoice | null>(null)

  return (
    <div className="min-w-0 space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Billing &amp; Invoices</h1>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" asChild>
            <a href={exportCsvHref(filter)} download>
              <Download aria-hidden="true" /> Export CSV
            </a>
          </Button>
          {canWrite ? (
            <>
              <Button variant="outline" onClick={() => setManaging(true)}>
                <ListChecks aria-hidden="true" /> Services
              </Button>
              <Button onClick={() => setCreating(true)}>
                <Plus aria-hidden="true" /> New Invoice
              </Button>
            </>
          ) : null}
        </div>
      </div>
      <SummaryCards />
      <LazyRevenueChart />
      <section aria-label="Invoices" className="space-y-4">
        <BillingToolbar
          status={status}
          onStatus={setStatus}
          searchText={searchText}
          onSearchText={setSearchText}
        />
        <InvoicesResults
          query={query}
          filtered={status !== 'all' || search !== ''}
          timeZone={hospital.timeZone}
          onView={setViewing}
          onMarkPaid={canWrite ? setPaying : undefined}
          onCancel={canWrite ? setCancelling : undefined}
        />
      </section>
      <InvoiceDetailsDialog
        invoice={viewing}
        timeZone={hospital.timeZone}
        onClose={() => setViewing(null)}
      />
      <MarkPaidDialog invoice={paying} onClose={() => setPaying(null)} />
      <CancelInvoiceDialog invoice={cancelling} onClose={() => setCancelling(null)} />
      <NewInvoiceDialog
        open={creating}
        onClose={() => setCreating(false)}
        hospitalStateCode={hospital.stateCode}
        timeZone={hospital.timeZone}
      />
      <ServicesDialog open={managing} onClose={() => setManaging(false)} />
    </div>
  )
}
