import { ComingSoon } from '@/client/components/ui/coming-soon'
import type { CurrentUser } from '@/shared/schemas/auth'
import { AdminAccessRequired } from './components/admin-access-required'
import { TeamPage } from './team-page'

/**
 * /admin: a hospital admin manages their team; a platform account keeps the platform's
 * placeholder (its Admin screen is built with the Super Admin Dashboard); anyone else gets
 * 'Admin Access Required' (the server answers them 403 too).
 */
export function AdminPage({ user }: { user: CurrentUser }) {
  if (user.isSuperAdmin) return <ComingSoon title="Admin" />
  if (user.role !== 'admin' || !user.hospitalId) return <AdminAccessRequired />
  return <TeamPage />
}
