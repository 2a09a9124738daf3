import { useCan, useUser } from '@/client/lib/current-user'
import { MetaConnectionCard } from './components/meta-connection-card'

/**
 * /settings. Built so far: Integrations → Meta lead ads (issue 8). The other sections of spec
 * section 2 (General, Notifications, Security, Appearance, Data) come with their own issues.
 */
export function SettingsPage() {
  const canManage = useCan('hospital:manage')
  const { data: user } = useUser()
  return (
    <div className="mx-auto w-full max-w-3xl space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Settings</h1>
        <p className="text-slate-600">Your hospital&apos;s connections to other services.</p>
      </div>
      <section aria-labelledby="integrations-title" className="space-y-3">
        <h2 id="integrations-title" className="text-lg font-semibold">
          Integrations
        </h2>
        {canManage ? (
          <MetaConnectionCard />
        ) : user?.hospitalId === null ? (
          <p className="rounded-lg border border-slate-200 bg-white p-5 text-sm text-slate-700">
            Integrations belong to a hospital: a hospital&apos;s admin sets them up.
          </p>
        ) : (
          <p className="rounded-lg border border-slate-200 bg-white p-5 text-sm text-slate-700">
            Only your hospital&apos;s admin can change its integrations.
          </p>
        )}
      </section>
    </div>
  )
}
