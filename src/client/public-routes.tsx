import { lazy, Suspense } from 'react'
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter'
import { NotFound } from './components/not-found'
import { FullPageSpinner } from './components/ui/full-page-spinner'
import { signInHref } from './lib/next-path'
import { bookingPath, paths } from './paths'
import { requiresSignIn } from '@/shared/app-routes'

const LandingPage = lazy(() =>
  import('./features/marketing/landing-page').then((m) => ({ default: m.LandingPage })),
)
const PricingPage = lazy(() =>
  import('./features/marketing/pricing-page').then((m) => ({ default: m.PublicPricingPage })),
)
const AddOnsPage = lazy(() =>
  import('./features/marketing/add-ons-page').then((m) => ({ default: m.PublicAddOnsPage })),
)
const BookingPage = lazy(() =>
  import('./features/booking/booking-page').then((m) => ({ default: m.BookingPage })),
)
const AcceptInvitationPage = lazy(() =>
  import('./features/team/accept-invitation-page').then((m) => ({
    default: m.AcceptInvitationPage,
  })),
)
const LoginPage = lazy(() =>
  import('./features/auth/login-page').then((m) => ({ default: m.LoginPage })),
)
const ForgotPasswordPage = lazy(() =>
  import('./features/auth/forgot-password-page').then((m) => ({ default: m.ForgotPasswordPage })),
)
const ResetPasswordPage = lazy(() =>
  import('./features/auth/reset-password-page').then((m) => ({ default: m.ResetPasswordPage })),
)

/**
 * A staff screen opened signed out (a bookmark, a shared link) goes to sign-in, which comes
 * back to it afterwards; any other path is the 404 page.
 */
function SignInOrNotFound() {
  const [location] = useLocation()
  const search = useSearch()
  if (!requiresSignIn(location)) return <NotFound />
  const target = `${location}${search ? `?${search}` : ''}${window.location.hash}`
  return <Redirect to={signInHref(target)} replace />
}

/** Routes a signed-out visitor can open (spec section 2). */
export function PublicRoutes() {
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <Switch>
        <Route path={paths.home} component={LandingPage} />
        <Route path={paths.pricing} component={PricingPage} />
        <Route path={paths.addOns} component={AddOnsPage} />
        <Route path={paths.login} component={LoginPage} />
        <Route path={bookingPath} component={BookingPage} />
        <Route path={paths.invite} component={AcceptInvitationPage} />
        <Route path={paths.forgotPassword} component={ForgotPasswordPage} />
        <Route path={paths.resetPassword} component={ResetPasswordPage} />
        <Route>
          <SignInOrNotFound />
        </Route>
      </Switch>
    </Suspense>
  )
}
