import { Plus } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { ConfirmDialog } from '@/client/components/ui/confirm-dialog'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { NativeSelect } from '@/client/components/ui/input'
import { SearchBox } from '@/client/components/ui/search-box'
import { Skeleton } from '@/client/components/ui/skeleton'
import { useCan } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { useDebouncedValue } from '@/client/lib/use-debounced-value'
import { type Faq, type FaqCategory, faqCategories, faqCategoryLabels } from '@/shared/schemas/faqs'
import { useDeleteFaq } from './api/delete-faq'
import { useFaqs } from './api/get-faqs'
import { useReorderFaqs } from './api/reorder-faqs'
import { FaqDialog } from './components/faq-dialog'
import { FaqGroups, movedWithinGroup } from './components/faq-groups'
import { PrebuiltFaqsCard } from './components/prebuilt-faqs-card'
import { PublicFaqLink } from './components/public-faq-link'

/**
 * /faqs (spec section 2, FAQ Management): search, category filter, the FAQs in order with
 * Edit, Delete and Move up/down, the add/edit dialog, the pre-built card when there are none,
 * and the public page's link. Changes need faqs:write and are hidden without it.
 */
export function FaqsPage() {
  const [searchText, setSearchText] = useState('')
  const [category, setCategory] = useState<FaqCategory | 'all'>('all')
  const q = useDebouncedValue(searchText.trim(), 250)
  const query = useFaqs({ q, category })
  const canWrite = useCan('faqs:write')
  const [editing, setEditing] = useState<Faq | null>(null)
  const [creating, setCreating] = useState(false)
  const [deleting, setDeleting] = useState<Faq | null>(null)
  const remove = useDeleteFaq()
  const reorder = useReorderFaqs()
  const filtered = q !== '' || category !== 'all'

  async function confirmDelete() {
    if (!deleting) return
    try {
      await remove.mutateAsync(deleting.id)
      toast.success('FAQ deleted successfully')
    } catch (error) {
      toast.failed('Failed to delete FAQ', error, 'Please try again.')
    } finally {
      setDeleting(null)
    }
  }

  async function move(faq: Faq, by: -1 | 1) {
    const ids = movedWithinGroup(query.data?.faqs ?? [], faq, by)
    if (!ids) return
    try {
      await reorder.mutateAsync(ids)
      toast.success('FAQ order saved')
    } catch (error) {
      toast.failed('Failed to update FAQ', error, 'Please try again.')
    }
  }

  const data = query.data
  return (
    <div className="min-w-0 space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold">FAQ Management</h1>
          <p className="text-sm text-slate-600">
            Answers for your patients (on your public FAQ page) and help for your staff.
          </p>
        </div>
        {canWrite ? (
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" /> Add FAQ
          </Button>
        ) : null}
      </div>
      {data?.publicPath ? <PublicFaqLink path={data.publicPath} /> : null}
      <div className="space-y-4">
        <div className="flex flex-col gap-2 sm:flex-row">
          <SearchBox
            value={searchText}
            onChange={setSearchText}
            placeholder="Search questions and answers..."
            label="Search FAQs"
          />
          <NativeSelect
            aria-label="Filter by category"
            className="sm:w-52"
            value={category}
            onChange={(e) => setCategory(e.target.value as FaqCategory | 'all')}
          >
            <option value="all">All categories</option>
            {faqCategories.map((c) => (
              <option key={c} value={c}>
                {faqCategoryLabels[c]}
              </option>
            ))}
          </NativeSelect>
        </div>
        {query.isPending ? (
          <div className="space-y-3" role="status" aria-label="Loading FAQs">
            <Skeleton className="h-28 w-full" />
            <Skeleton className="h-28 w-full" />
          </div>
        ) : query.isError ? (
          <InlineLoadError
            message="Failed to load the FAQs."
            onRetry={() => void query.refetch()}
          />
        ) : data && data.total === 0 ? (
          <PrebuiltFaqsCard canWrite={canWrite} />
        ) : data && data.faqs.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
            No FAQs match your search or filter.
          </p>
        ) : (
          <>
            {canWrite && filtered ? (
              <p className="text-xs text-slate-500">
                Clear the search and filter to change the order.
              </p>
            ) : null}
            <FaqGroups
              faqs={data?.faqs ?? []}
              filtered={filtered}
              actions={
                canWrite
                  ? {
                      onEdit: setEditing,
                      onDelete: setDeleting,
                      onMove: filtered ? undefined : (f, by) => void move(f, by),
                      moving: reorder.isPending,
                    }
                  : undefined
              }
            />
          </>
        )}
      </div>
      <FaqDialog
        open={creating || editing !== null}
        faq={editing}
        onClose={() => {
          setCreating(false)
          setEditing(null)
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null)
        }}
        title="Are you sure you want to delete this FAQ?"
        description={deleting?.question}
        cancelLabel="Cancel"
        confirmLabel="Delete"
        destructive
        onConfirm={() => void confirmDelete()}
      />
    </div>
  )
}
