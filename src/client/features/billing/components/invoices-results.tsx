import { FileText } from 'lucide-react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiError } from '@/client/lib/api-client'
import type { useInvoices } from '../api/get-invoices'
import { type InvoiceActions, InvoiceCard } from './invoice-card'

function LoadingCards() {
  return (
    <div
      className="grid gap-4 lg:grid-cols-2"
      role="status"
      aria-busy="true"
      aria-label="Loading invoices"
    >
      {[0, 1, 2].map((i) => (
        <Card key={i} data-testid="invoice-skeleton">
          <CardContent className="space-y-3 p-5">
            <Skeleton className="h-6 w-1/2" />
            <Skeleton className="h-4 w-3/4" />
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-16 w-full" />
          </CardContent>
        </Card>
      ))}
    </div>
  )
}

/** The invoices under the filter: loading, error, the spec's empty states, cards, Load more. */
export function InvoicesResults({
  query,
  filtered,
  ...actions
}: InvoiceActions & { query: ReturnType<typeof useInvoices>; filtered: boolean }) {
  if (query.isPending) return <LoadingCards />
  if (query.isLoadingError) {
    return (
      <Card>
        <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
          <p className="font-medium" role="alert">
            Failed to fetch invoices
          </p>
          <p className="text-sm text-slate-600">
            {query.error instanceof ApiError ? query.error.serverMessage : query.error.message}
          </p>
          <Button variant="outline" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </CardContent>
      </Card>
    )
  }
  const invoices = query.data.pages.flatMap((p) => p.invoices)
  if (invoices.length === 0) {
    return (
      <Card>
        <CardContent className="flex flex-col items-center gap-2 p-10 text-center">
          <FileText className="size-10 text-slate-400" aria-hidden="true" />
          <p className="text-lg font-medium">No invoices found</p>
          <p className="text-sm text-slate-600">
            {filtered ? 'Try adjusting your filters' : 'Create your first invoice'}
          </p>
        </CardContent>
      </Card>
    )
  }
  return (
    <>
      <div className="grid gap-4 lg:grid-cols-2">
        {invoices.map((invoice) => (
          <InvoiceCard key={invoice.id} invoice={invoice} {...actions} />
        ))}
      </div>
      <div className="flex flex-col items-center gap-2 py-2">
        {query.isFetchNextPageError ? (
          <InlineLoadError
            message="Failed to load more invoices."
            onRetry={() => void query.fetchNextPage()}
          />
        ) : null}
        {query.hasNextPage ? (
          <Button
            variant="outline"
            onClick={() => void query.fetchNextPage()}
            loading={query.isFetchingNextPage}
            loadingText="Loading more invoices..."
          >
            Load more
          </Button>
        ) : (
          <p data-testid="end-of-list" className="text-sm text-slate-600">
            {invoices.length === 1
              ? 'The only invoice is shown'
              : `All ${invoices.length} invoices shown`}
          </p>
        )}
      </div>
    </>
  )
}
