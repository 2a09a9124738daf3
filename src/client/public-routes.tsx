import { lazy, Suspense } from 'react'
import { Route, Switch } from 'wouter'
import { NotFound } from './components/not-found'
import { FullPageSpinner } from './components/ui/full-page-spinner'
import { paths } from './paths'

const LandingPage = lazy(() =>
  import('./features/marketing/landing-page').then((m) => ({ default: m.LandingPage })),
)
const PricingPage = lazy(() =>
  import('./features/marketing/pricing-page').then((m) => ({ default: m.PublicPricingPage })),
)
const AddOnsPage = lazy(() =>
  import('./features/marketing/add-ons-page').then((m) => ({ default: m.PublicAddOnsPage })),
)
const LoginPage = lazy(() =>
  import('./features/auth/login-page').then((m) => ({ default: m.LoginPage })),
)

/** Routes a signed-out visitor can open (spec section 2). */
export function PublicRoutes() {
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <Switch>
        <Route path={paths.home} component={LandingPage} />
        <Route path={paths.pricing} component={PricingPage} />
        <Route path={paths.addOns} component={AddOnsPage} />
        <Route path={paths.login} component={LoginPage} />
        <Route>
          <NotFound />
        </Route>
      </Switch>
    </Suspense>
  )
}
