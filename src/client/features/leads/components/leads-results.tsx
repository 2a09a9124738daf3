import { Inbox } from 'lucide-react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { Skeleton } from '@/client/components/ui/skeleton'
import { Spinner } from '@/client/components/ui/spinner'
import { ApiError } from '@/client/lib/api-client'
import { useMediaQuery } from '@/client/lib/use-media-query'
import { useOnInView } from '@/client/lib/use-in-view'
import type { useLeads } from '../api/get-leads'
import { LeadCard } from './lead-card'
import type { RowActionHandlers } from './lead-row-actions'
import { type Selection, SelectAllBox, LeadsTable } from './leads-table'

/** The table needs a tablet's width; phones get cards. */
const WIDE_ENOUGH = '(min-width: 640px)'

function Loading() {
  return (
    <div className="space-y-2" role="status" aria-busy="true" aria-label="Loading leads">
      {[0, 1, 2, 3, 4].map((i) => (
        <Skeleton key={i} className="h-14 w-full" />
      ))}
    </div>
  )
}

function Message({
  title,
  text,
  children,
}: {
  title: string
  text: string
  children?: React.ReactNode
}) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-2 p-10 text-center">
        <Inbox className="size-10 text-slate-400" aria-hidden="true" />
        <p className="text-lg font-medium">{title}</p>
        <p className="text-sm text-slate-600">{text}</p>
        {children}
      </CardContent>
    </Card>
  )
}

/** Loading, error, empty, the table or cards, then more as the end scrolls into view. */
export function LeadsResults({
  query,
  selection,
  actions,
}: {
  query: ReturnType<typeof useLeads>
  selection: Selection
  actions: RowActionHandlers
}) {
  const wide = useMediaQuery(WIDE_ENOUGH)
  const leads = query.data?.pages.flatMap((p) => p.leads) ?? []
  const sentinel = useOnInView<HTMLDivElement>(() => {
    if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage()
  }, Boolean(query.hasNextPage))

  if (query.isPending) return <Loading />
  if (query.isError) {
    return (
      <div role="alert">
        <Message
          title="Failed to fetch leads"
          text={query.error instanceof ApiError ? query.error.serverMessage : query.error.message}
        >
          <Button variant="outline" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </Message>
      </div>
    )
  }
  if (leads.length === 0) {
    return (
      <Message
        title="No leads found"
        text="Get started by syncing your Meta campaigns or adjust your filters."
      />
    )
  }
  return (
    <>
      {wide ? (
        <LeadsTable leads={leads} selection={selection} actions={actions} />
      ) : (
        <div className="space-y-3">
          {selection.selected ? (
            <label className="flex items-center gap-2 px-1 text-sm font-medium">
              <SelectAllBox leads={leads} selection={selection} />
              Select all
            </label>
          ) : null}
          {leads.map((lead) => (
            <LeadCard key={lead.id} lead={lead} selection={selection} actions={actions} />
          ))}
        </div>
      )}
      <div ref={sentinel} className="flex justify-center py-3">
        {query.isFetchingNextPage ? (
          <Spinner label="Loading more leads" className="size-6" />
        ) : query.hasNextPage ? (
          <Button variant="outline" onClick={() => void query.fetchNextPage()}>
            Load more
          </Button>
        ) : (
          <p data-testid="end-of-list" className="text-sm text-slate-600">
            {leads.length === 1 ? 'The only lead is shown' : `All ${leads.length} leads shown`}
          </p>
        )}
      </div>
    </>
  )
}
