import { lazy } from 'react'
import { Route, Switch } from 'wouter'
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
const FullApp = lazy(() => import('./app').then((m) => ({ default: m.App })))

/**
 * The marketing site for a visitor the server knows is signed out: no query client, no
 * sign-in check, no staff code. Any other path hands over to the full app.
 */
export function MarketingApp() {
  return (
    <Switch>
      <Route path={paths.home} component={LandingPage} />
      <Route path={paths.pricing} component={PricingPage} />
      <Route path={paths.addOns} component={AddOnsPage} />
      <Route>
        <FullApp />
      </Route>
    </Switch>
  )
}
