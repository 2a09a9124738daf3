import './zod-jitless'
import { lazy, StrictMode, Suspense } from 'react'
import { createRoot } from 'react-dom/client'
import { FullPageSpinner } from './components/ui/full-page-spinner'
import { paths } from './paths'
import './styles.css'

// Two ways in, both code-split. A visitor the server marked signed out (no session cookie,
// see server/modules/seo) who opens a marketing page gets the small marketing app; everyone
// else gets the full app, which checks the sign-in state and loads the staff screens.
const App = lazy(() => import('./app').then((m) => ({ default: m.App })))
const MarketingApp = lazy(() =>
  import('./marketing-app').then((m) => ({ default: m.MarketingApp })),
)

const marketingPaths: string[] = [paths.home, paths.pricing, paths.addOns]
const path = window.location.pathname.replace(/(.)\/+$/, '$1')
const signedOut =
  document.querySelector<HTMLMetaElement>('meta[name="arogya-session"]')?.content === 'none'

const root = document.getElementById('root')
if (!root) throw new Error('No #root element')
createRoot(root).render(
  <StrictMode>
    <Suspense fallback={<FullPageSpinner />}>
      {signedOut && marketingPaths.includes(path) ? <MarketingApp /> : <App />}
    </Suspense>
  </StrictMode>,
)
