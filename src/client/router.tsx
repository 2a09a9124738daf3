import { lazy, Suspense } from 'react'
import { FullPageSpinner } from './components/ui/full-page-spinner'
import { useUser } from './lib/current-user'

// Signed-out pages and the staff app are separate bundles: a visitor downloads no staff screens.
const PublicRoutes = lazy(() =>
  import('./public-routes').then((m) => ({ default: m.PublicRoutes })),
)
const StaffApp = lazy(() => import('./staff-app').then((m) => ({ default: m.StaffApp })))

/** Spinner while the sign-in state loads, then the signed-out site or the staff app. */
export function Root() {
  const user = useUser()
  if (user.isPending) return <FullPageSpinner />
  if (user.isError) {
    return (
      <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-6 text-center">
        <h1 className="text-xl font-semibold">We could not reach Arogya CRM</h1>
        <p className="text-slate-600">Check your connection and try again.</p>
        {/* A plain button: the Button primitive would pull class-merging code into the entry bundle. */}
        <button
          type="button"
          onClick={() => void user.refetch()}
          className="inline-flex h-10 items-center justify-center rounded-md bg-brand-700 px-4 text-sm font-medium text-white hover:bg-brand-800"
        >
          Try again
        </button>
      </main>
    )
  }
  return (
    <Suspense fallback={<FullPageSpinner />}>
      {user.data ? <StaffApp user={user.data} /> : <PublicRoutes />}
    </Suspense>
  )
}
