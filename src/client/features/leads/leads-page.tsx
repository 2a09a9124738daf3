import { HelpCircle } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { useLocation, useSearch } from 'wouter'
import { useQueryClient } from '@tanstack/react-query'
import { Button } from '@/client/components/ui/button'
import { ApiError } from '@/client/lib/api-client'
import { useCan } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { useDebouncedValue } from '@/client/lib/use-debounced-value'
import { useOpenFromUrl } from '@/client/lib/use-open-from-url'
import type { Lead, LeadSource, LeadStatus } from '@/shared/schemas/leads'
import { useLeads } from './api/get-leads'
import { useStats } from './api/get-stats'
import { invalidateLeads } from './api/invalidate'
import type { Viewing } from './components/lead-details-dialog'
import { LeadsFilters } from './components/leads-filters'
import { LeadsHeader } from './components/leads-header'
import { LeadsResults } from './components/leads-results'
import { StatsStrip } from './components/stats-strip'
import { useSyncLeads } from './api/sync-leads'
import { LazyLeadCharts } from './charts/lazy-lead-charts'
import { TourPopover } from './tour/tour-popover'
import { useTour } from './tour/use-tour'
import { WelcomeCard } from './tour/welcome-card'
import { useContactActions } from './use-contact-actions'
import { useSelection } from './use-selection'

// The dialogs (with the lead form's phone check: libphonenumber's `max` metadata, and the CSV
// import) load when first opened, not with the list.
const LeadDetailsDialog = lazy(() =>
  import('./components/lead-details-dialog').then((m) => ({ default: m.LeadDetailsDialog })),
)
const NewLeadDialog = lazy(() =>
  import('./components/new-lead-dialog').then((m) => ({ default: m.NewLeadDialog })),
)
// The bulk bar (with the bulk message dialog) loads when a first lead is selected.
const BulkActionBar = lazy(() =>
  import('./components/bulk-action-bar').then((m) => ({ default: m.BulkActionBar })),
)
const ImportLeadsDialog = lazy(() =>
  import('./import/import-leads-dialog').then((m) => ({ default: m.ImportLeadsDialog })),
)

const count = new Intl.NumberFormat('en-IN')

/**
 * /leads and /dashboard: the Lead Management Dashboard (spec section 2). ?open=<id> opens a
 * lead's details (the home page's Recent Leads link here).
 */
export function LeadsPage() {
  const [status, setStatus] = useState<LeadStatus | 'all'>('all')
  const [source, setSource] = useState<LeadSource | 'all'>('all')
  const [searchText, setSearchText] = useState('')
  const search = useDebouncedValue(searchText.trim(), 300)
  const query = useLeads({ status, source, search })
  const stats = useStats()
  const canWrite = useCan('leads:write')
  const canImport = useCan('leads:import')
  const [importing, setImporting] = useState(false)
  const queryClient = useQueryClient()
  const [syncing, setSyncing] = useState(false)
  const syncLeads = useSyncLeads()
  const [creating, setCreating] = useState(false)
  useOpenFromUrl(canWrite, () => setCreating(true)) // ?new=1: the command palette's New Lead
  const tour = useTour()
  const contact = useContactActions()
  const [location, navigate] = useLocation()

  const openId = new URLSearchParams(useSearch()).get('open')
  const [viewing, setViewing] = useState<Viewing | null>(openId ? { id: openId } : null)
  const [seenOpenId, setSeenOpenId] = useState(openId)
  if (openId !== seenOpenId) {
    setSeenOpenId(openId)
    if (openId) setViewing({ id: openId })
  }

  const leads = query.data?.pages.flatMap((p) => p.leads) ?? []
  const selection = useSelection(leads)

  function closeDetails() {
    setViewing(null)
    if (openId) navigate(location, { replace: true })
  }

  /**
   * Sync Leads: the server fetches the lead-ad leads Meta has (the webhook brings most of them by
   * itself). A role that may not change leads only refreshes the list and figures.
   */
  async function sync() {
    if (!canWrite) {
      setSyncing(true)
      await invalidateLeads(queryClient).finally(() => setSyncing(false))
      // Not "synced": nothing was asked of Meta (issue 40 item 16). Say what happened and who can.
      toast.success(
        'List refreshed',
        'Showing the latest leads. Fetching new leads from Meta is for staff who manage leads.',
      )
      return
    }
    try {
      const r = await syncLeads.mutateAsync()
      const n = count.format
      toast.success(
        'Leads synced',
        `${n(r.processed)} from Meta: ${n(r.created)} new, ${n(r.duplicates)} already here` +
          (r.errors ? `, ${n(r.errors)} could not be stored` : ''),
      )
    } catch (error) {
      // A missing setting or Meta's own refusal says what to fix; anything else is generic.
      const told = error instanceof ApiError && error.status < 500 ? error.jsonMessage : undefined
      toast.error('Sync Failed', told ?? 'Failed to sync Meta leads. Please try again.')
    }
  }

  return (
    <div className="min-w-0 space-y-5">
      <LeadsHeader
        stats={stats.data}
        syncing={syncing || syncLeads.isPending}
        onSync={() => void sync()}
        onNewLead={canWrite ? () => setCreating(true) : undefined}
        onImport={canImport ? () => setImporting(true) : undefined}
        tourButton={
          <Button variant="ghost" onClick={tour.restart}>
            <HelpCircle aria-hidden="true" />
            Take the tour
          </Button>
        }
      />
      <WelcomeCard
        state={tour.welcome}
        onStart={tour.start}
        onMinimise={tour.minimise}
        onExpand={tour.expand}
        onDismiss={tour.dismissWelcome}
      />
      <StatsStrip />
      <LazyLeadCharts />
      <section aria-labelledby="recent-leads-title" className="space-y-3">
        <h2 id="recent-leads-title" className="text-lg font-semibold">
          Recent Leads
        </h2>
        <LeadsFilters
          status={status}
          onStatus={(s) => {
            setStatus(s)
            selection.clear()
          }}
          source={source}
          onSource={(s) => {
            setSource(s)
            selection.clear()
          }}
          searchText={searchText}
          onSearchText={setSearchText}
          selecting={selection.selecting}
          onSelecting={canWrite ? selection.setSelecting : undefined}
        />
        {selection.ids.length > 0 ? (
          <Suspense fallback={null}>
            <BulkActionBar ids={selection.ids} onClear={selection.clear} />
          </Suspense>
        ) : null}
        <LeadsResults
          query={query}
          selection={selection}
          actions={{
            ...contact,
            onMore: (lead: Lead) => setViewing({ id: lead.id, shown: lead }),
          }}
        />
      </section>
      <Suspense fallback={null}>
        {viewing ? <LeadDetailsDialog viewing={viewing} onClose={closeDetails} /> : null}
        {creating ? (
          <NewLeadDialog
            open={creating}
            onClose={() => setCreating(false)}
            onOpenLead={(lead) => setViewing({ id: lead.id, shown: lead })}
          />
        ) : null}
        {importing ? (
          <ImportLeadsDialog open={importing} onClose={() => setImporting(false)} />
        ) : null}
      </Suspense>
      {tour.step !== null ? (
        <TourPopover
          step={tour.step}
          onNext={tour.next}
          onPrevious={tour.previous}
          onSkip={tour.skip}
        />
      ) : null}
    </div>
  )
}
