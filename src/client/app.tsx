import { QueryClientProvider } from '@tanstack/react-query'
import { lazy, Suspense, useState } from 'react'
import { useLocation } from 'wouter'
import { getUserQueryOptions, useUser } from './lib/current-user'
import { createQueryClient } from './lib/query-client'
import { paths } from './paths'
import { Root } from './router'

const AppToaster = lazy(() => import('./toaster').then((m) => ({ default: m.AppToaster })))

/** Signed-out marketing pages show no toasts (their messages are inline), so they skip loading sonner. */
const toastFreePaths: readonly string[] = [paths.home, paths.pricing, paths.addOns]

/**
 * The server marks a page requested without a session cookie (modules/seo): nobody can be
 * signed in, so the client need not ask (and the visitor sees the page without a round trip).
 */
function createClient() {
  const client = createQueryClient()
  const hint = document.querySelector<HTMLMetaElement>('meta[name="arogya-session"]')
  if (hint?.content === 'none') client.setQueryData(getUserQueryOptions().queryKey, null)
  return client
}

/** The toast area, loaded once a page that may toast is shown (then kept, so no toast is lost). */
function Toasts() {
  const user = useUser()
  const [location] = useLocation()
  const [needed, setNeeded] = useState(false)
  if (!needed && user.isSuccess && (user.data || !toastFreePaths.includes(location)))
    setNeeded(true)
  return needed ? (
    <Suspense fallback={null}>
      <AppToaster />
    </Suspense>
  ) : null
}

export function App() {
  const [queryClient] = useState(createClient)
  return (
    <QueryClientProvider client={queryClient}>
      <Root />
      <Toasts />
    </QueryClientProvider>
  )
}
