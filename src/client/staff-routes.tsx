import { lazy, type ReactNode } from 'react'
import { safeNextPath } from './lib/next-path'
import { paths } from './paths'
import type { AppPath } from '@/shared/app-routes'
import type { CurrentUser } from '@/shared/schemas/auth'

const HomePage = lazy(() =>
  import('./features/dashboard/home-page').then((m) => ({ default: m.HomePage })),
)
const LeadsPage = lazy(() =>
  import('./features/leads/leads-page').then((m) => ({ default: m.LeadsPage })),
)
const PatientsPage = lazy(() =>
  import('./features/patients/patients-page').then((m) => ({ default: m.PatientsPage })),
)
const ManualPatientPage = lazy(() =>
  import('./features/patients/manual-patient-page').then((m) => ({ default: m.ManualPatientPage })),
)
const AppointmentsPage = lazy(() =>
  import('./features/appointments/appointments-page').then((m) => ({
    default: m.AppointmentsPage,
  })),
)
const BillingPage = lazy(() =>
  import('./features/billing/billing-page').then((m) => ({ default: m.BillingPage })),
)
const LeadGenerationPage = lazy(() =>
  import('./features/lead-generation/lead-generation-page').then((m) => ({
    default: m.LeadGenerationPage,
  })),
)
const FaqsPage = lazy(() =>
  import('./features/faqs/faqs-page').then((m) => ({ default: m.FaqsPage })),
)
const CampaignsPage = lazy(() =>
  import('./features/campaigns/campaigns-page').then((m) => ({ default: m.CampaignsPage })),
)
const SettingsPage = lazy(() =>
  import('./features/settings/settings-page').then((m) => ({ default: m.SettingsPage })),
)
const SandboxOutboxPage = lazy(() =>
  import('./features/messaging/sandbox-outbox-page').then((m) => ({
    default: m.SandboxOutboxPage,
  })),
)
const SuperAdminPage = lazy(() =>
  import('./features/platform/super-admin-page').then((m) => ({ default: m.SuperAdminPage })),
)
const AdminPage = lazy(() =>
  import('./features/team/admin-page').then((m) => ({ default: m.AdminPage })),
)
const InvitationWhileSignedIn = lazy(() =>
  import('./features/team/accept-invitation-page').then((m) => ({
    default: m.InvitationWhileSignedIn,
  })),
)
const PricingPage = lazy(() =>
  import('./features/marketing/pricing-page').then((m) => ({ default: m.PricingPage })),
)
const SupportPage = lazy(() =>
  import('./features/support/support-page').then((m) => ({ default: m.SupportPage })),
)
const BackupPage = lazy(() =>
  import('./features/backup/backup-page').then((m) => ({ default: m.BackupPage })),
)
const LiveMonitoringPage = lazy(() =>
  import('./features/live-monitoring/live-monitoring-page').then((m) => ({
    default: m.LiveMonitoringPage,
  })),
)
const AddOnsPage = lazy(() =>
  import('./features/marketing/add-ons-page').then((m) => ({ default: m.AddOnsPage })),
)

/**
 * Who a screen is for. 'hospital': a hospital's staff (a platform account, which belongs to
 * no hospital, is told so instead); 'platform': super admins; 'everyone': any signed-in user.
 */
export type RouteAccess = 'hospital' | 'platform' | 'everyone'

export interface StaffRoute {
  path: AppPath
  /** The tab reads '<title> · Arogya CRM' while the screen shows. */
  title: string
  access: RouteAccess
  render: (user: CurrentUser) => ReactNode
}

/** Every signed-in screen (spec section 2), with its tab title and who it is for. */
export const staffRoutes: readonly StaffRoute[] = [
  {
    path: paths.home,
    title: 'Dashboard',
    access: 'hospital',
    render: (user) => <HomePage user={user} />,
  },
  // The Lead Management Dashboard: /dashboard (spec) and /leads (the home shortcut's target).
  { path: paths.dashboard, title: 'Dashboard', access: 'hospital', render: () => <LeadsPage /> },
  { path: paths.leads, title: 'Leads', access: 'hospital', render: () => <LeadsPage /> },
  { path: paths.patients, title: 'Patients', access: 'hospital', render: () => <PatientsPage /> },
  {
    path: paths.manualPatient,
    title: 'Manual Entry',
    access: 'hospital',
    render: () => <ManualPatientPage />,
  },
  {
    path: paths.appointments,
    title: 'Appointments',
    access: 'hospital',
    render: () => <AppointmentsPage />,
  },
  {
    path: paths.billing,
    title: 'Billing & Invoices',
    access: 'hospital',
    render: () => <BillingPage />,
  },
  {
    path: paths.leadGeneration,
    title: 'Lead Generation',
    access: 'hospital',
    render: () => <LeadGenerationPage />,
  },
  {
    path: paths.campaigns,
    title: 'Marketing Campaigns',
    access: 'hospital',
    render: () => <CampaignsPage />,
  },
  {
    path: paths.liveMonitoring,
    title: 'Live Monitoring',
    access: 'hospital',
    render: () => <LiveMonitoringPage />,
  },
  { path: paths.faqs, title: 'FAQ Management', access: 'hospital', render: () => <FaqsPage /> },
  {
    path: paths.support,
    title: 'Support Tickets',
    access: 'hospital',
    render: () => <SupportPage />,
  },
  {
    path: paths.backup,
    title: 'Backup Settings',
    access: 'hospital',
    render: () => <BackupPage />,
  },
  // Issue 27: a hospital admin's team; platform accounts keep the placeholder (admin-page.tsx).
  {
    path: paths.admin,
    title: 'Admin',
    access: 'everyone',
    render: (user) => <AdminPage user={user} />,
  },
  {
    path: paths.invite,
    title: 'Invitation',
    access: 'everyone',
    render: () => <InvitationWhileSignedIn />,
  },
  { path: paths.settings, title: 'Settings', access: 'everyone', render: () => <SettingsPage /> },
  {
    path: paths.sandboxOutbox,
    title: 'Sandbox Outbox',
    access: 'hospital',
    render: () => <SandboxOutboxPage />,
  },
  {
    path: paths.superAdmin,
    title: 'Super Admin Dashboard',
    access: 'platform',
    render: (user) => <SuperAdminPage user={user} />,
  },
  { path: paths.pricing, title: 'Pricing', access: 'everyone', render: () => <PricingPage /> },
  { path: paths.addOns, title: 'Add-ons', access: 'everyone', render: () => <AddOnsPage /> },
]

/** A platform account belongs to no hospital. */
export function isHospitalMember(user: CurrentUser): boolean {
  return user.hospitalId !== null
}

/**
 * Where sign-in leads: back to the page the visitor asked for (`next`, this site only), else
 * the dashboard, or the Super Admin Dashboard for a platform account.
 */
export function afterSignInPath(user: CurrentUser, search: string): string {
  const next = safeNextPath(new URLSearchParams(search).get('next'))
  if (next) return next
  return isHospitalMember(user) ? paths.home : paths.superAdmin
}
