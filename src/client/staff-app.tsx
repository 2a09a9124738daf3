import { lazy, Suspense } from 'react'
import { Redirect, Route, Switch } from 'wouter'
import { AppShell } from './components/layout/app-shell'
import { NotFound } from './components/not-found'
import { ComingSoon } from './components/ui/coming-soon'
import { FullPageSpinner } from './components/ui/full-page-spinner'
import { Spinner } from './components/ui/spinner'
import { paths } from './paths'
import { type CurrentUser, mustEnrolTwoFactor } from '@/shared/schemas/auth'

const TwoFactorEnrolmentPage = lazy(() =>
  import('./features/auth/two-factor-enrolment-page').then((m) => ({
    default: m.TwoFactorEnrolmentPage,
  })),
)
const HomePage = lazy(() =>
  import('./features/dashboard/home-page').then((m) => ({ default: m.HomePage })),
)
const PatientsPage = lazy(() =>
  import('./features/patients/patients-page').then((m) => ({ default: m.PatientsPage })),
)
const ManualPatientPage = lazy(() =>
  import('./features/patients/manual-patient-page').then((m) => ({ default: m.ManualPatientPage })),
)
const PricingPage = lazy(() =>
  import('./features/marketing/pricing-page').then((m) => ({ default: m.PricingPage })),
)
const AddOnsPage = lazy(() =>
  import('./features/marketing/add-ons-page').then((m) => ({ default: m.AddOnsPage })),
)

/** Screens a later release builds; each shows a plain panel inside the shell. */
const comingSoon: [string, string][] = [
  [paths.appointments, 'Appointments'],
  [paths.billing, 'Billing & Invoices'],
  [paths.campaigns, 'Marketing Campaigns'],
  [paths.settings, 'Settings'],
  [paths.backup, 'Backup Settings'],
  [paths.superAdmin, 'Super Admin Dashboard'],
  [paths.faqs, 'FAQ Management'],
  [paths.leadGeneration, 'Lead Generation'],
  [paths.liveMonitoring, 'Live Monitoring'],
  [paths.support, 'Support Tickets'],
  [paths.admin, 'Admin'],
]

/** Every signed-in route (spec section 2), inside the app shell. */
export function StaffApp({ user }: { user: CurrentUser }) {
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
      <Suspense
        fallback={
          <div className="flex justify-center p-10">
            <Spinner className="size-6" />
          </div>
        }
      >
        <Switch>
          <Route path={paths.home}>
            <HomePage user={user} />
          </Route>
          <Route path={paths.dashboard}>
            <HomePage user={user} />
          </Route>
          <Route path={paths.patients} component={PatientsPage} />
          <Route path={paths.manualPatient} component={ManualPatientPage} />
          <Route path={paths.pricing} component={PricingPage} />
          <Route path={paths.addOns} component={AddOnsPage} />
          <Route path={paths.login}>
            <Redirect to={paths.home} replace />
          </Route>
          {comingSoon.map(([path, title]) => (
            <Route key={path} path={path}>
              <ComingSoon title={title} />
            </Route>
          ))}
          <Route>
            <NotFound />
          </Route>
        </Switch>
      </Suspense>
    </AppShell>
  )
}
