import { displayName } from '@/client/lib/display-name'
import type { CurrentUser } from '@/shared/schemas/auth'
import { RecentTabs } from './components/recent-tabs'
import { Shortcuts } from './components/shortcuts'
import { StatCards } from './components/stat-cards'

/** Signed-in home, the spec's simple dashboard: welcome, figures, shortcuts, recent items. */
export function HomePage({ user }: { user: CurrentUser }) {
  return (
    <div className="min-w-0 space-y-6">
      <div className="min-w-0 [overflow-wrap:anywhere]">
        <h1 className="text-2xl font-bold">Welcome back, {displayName(user)}!</h1>
        <p className="text-slate-600">
          {user.hospitalName ?? 'Arogya CRM platform administration'}
        </p>
      </div>
      <StatCards />
      <Shortcuts />
      <RecentTabs />
    </div>
  )
}
