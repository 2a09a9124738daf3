import { Loader2 } from 'lucide-react'

/**
 * The page-sized spinner shown while the sign-in state or a route loads. Kept apart from
 * Spinner (which merges classes with tailwind-merge) so the entry bundle stays small.
 */
export function FullPageSpinner() {
  return (
    <div className="flex min-h-screen items-center justify-center">
      <span role="status" aria-label="Loading" className="inline-flex">
        <Loader2 className="size-8 animate-spin text-brand-700" aria-hidden="true" />
      </span>
    </div>
  )
}
