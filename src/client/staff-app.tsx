import { lazy, Suspense } from 'react'
import { Redirect, Route, Switch, useSearch } from 'wouter'
import { HospitalStaffOnly, PlatformAccountsOnly } from './components/layout/access-panel'
import { LiveCallBar } from './features/calls/components/live-call-bar'
import { IncomingCallPopup } from './features/calls-incoming/incoming-call-popup'
import { AppShell } from './components/layout/app-shell'
import { NotFound } from './components/not-found'
import { FullPageSpinner } from './components/ui/full-page-spinner'
import { Spinner } from './components/ui/spinner'
import { DocumentTitle } from './lib/use-document-title'
import { usePresenceHeartbeat } from './lib/use-presence-heartbeat'
import { paths } from './paths'
import { afterSignInPath, isHospitalMember, type StaffRoute, staffRoutes } from './staff-routes'
import type { CurrentUser } from '@/shared/schemas/auth'
import { mustEnrolTwoFactor } from '@/shared/two-factor'

const ResetPasswordWhileSignedIn = lazy(() =>
  import('./features/auth/reset-password-page').then((m) => ({
    default: m.ResetPasswordWhileSignedIn,
  })),
)
const TwoFactorEnrolmentPage = lazy(() =>
  import('./features/auth/two-factor-enrolment-page').then((m) => ({
    default: m.TwoFactorEnrolmentPage,
  })),
)

/** One screen of the route table: its tab title, then the screen or a "not for you" panel. */
function StaffScreen({ route, user }: { route: StaffRoute; user: CurrentUser }) {
  let screen
  if (route.access === 'hospital' && !isHospitalMember(user)) {
    screen = <HospitalStaffOnly title={route.title} />
  } else if (route.access === 'platform' && !user.isSuperAdmin) {
    screen = <PlatformAccountsOnly title={route.title} />
  } else {
    screen = (
      <Suspense
        fallback={
          <div className="flex justify-center p-10">
            <Spinner className="size-6" />
          </div>
        }
      >
        {route.render(user)}
      </Suspense>
    )
  }
  // The title comes first, so a screen may set a more specific one of its own.
  return (
    <>
      <DocumentTitle title={route.title} />
      {screen}
    </>
  )
}

/** After sign-in (the sign-in page's address): the page asked for, or the user's home. */
function SignedInRedirect({ user }: { user: CurrentUser }) {
  const search = useSearch()
  return <Redirect to={afterSignInPath(user, search)} replace />
}

/** Every signed-in route (spec section 2, staff-routes.tsx), inside the app shell. */
export function StaffApp({ user }: { user: CurrentUser }) {
  // Live Monitoring presence: a hospital's own staff only (not a platform account).
  usePresenceHeartbeat(isHospitalMember(user) && !user.isSuperAdmin && !mustEnrolTwoFactor(user))
  // A platform account without two-factor may only enrol: no shell, no other screen.
  if (mustEnrolTwoFactor(user)) {
    return (
      <Suspense fallback={<FullPageSpinner />}>
        <TwoFactorEnrolmentPage user={user} />
      </Suspense>
    )
  }
  return (
    <AppShell user={user}>
      <Switch>
        <Route path={paths.login}>
          <SignedInRedirect user={user} />
        </Route>
        {/* Password reset (issue 40, item 7): pages for the signed-out. */}
        <Route path={paths.forgotPassword}>
          <SignedInRedirect user={user} />
        </Route>
        <Route path={paths.resetPassword}>
          <Suspense fallback={<FullPageSpinner />}>
            <ResetPasswordWhileSignedIn />
          </Suspense>
        </Route>
        {staffRoutes.map((route) => (
          <Route key={route.path} path={route.path}>
            <StaffScreen route={route} user={user} />
          </Route>
        ))}
        <Route>
          <NotFound />
        </Route>
      </Switch>
      <LiveCallBar />
      <IncomingCallPopup user={user} />
    </AppShell>
  )
}
