import type { CurrentUser } from '@/shared/schemas/auth'
import { AdminAccessRequired } from './components/admin-access-required'
import { SupportAccessSection } from './components/support-access-section'
import { PlatformAdminPage } from './platform-admin-page'
import { TeamPage } from './team-page'

/**
 * /admin: a super admin gets the spec's platform screen (every account, Suspend / Activate); a
 * hospital admin manages their team and the support access they grant; anyone else gets
 * 'Admin Access Required' (the server answers them 403 too).
 */
export function AdminPage({ user }: { user: CurrentUser }) {
  if (user.isSuperAdmin) return <PlatformAdminPage selfEmail={user.email} />
  if (user.role !== 'admin' || !user.hospitalId) return <AdminAccessRequired />
  return (
    <div className="min-w-0 space-y-8">
      <TeamPage />
      <SupportAccessSection />
    </div>
  )
}
