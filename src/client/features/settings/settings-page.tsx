import { FlaskConical } from 'lucide-react'
import { Link, useLocation, useSearch } from 'wouter'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/client/components/ui/tabs'
import { MessagingSettingsCard } from '@/client/components/messaging/components/messaging-settings-card'
import { NotificationsPanel } from '@/client/components/messaging/components/notifications-panel'
import { TemplatesPanel } from '@/client/components/messaging/components/templates-panel'
import { useCan, useUser } from '@/client/lib/current-user'
import { paths } from '@/client/paths'
import { AppearancePanel } from './components/appearance-panel'
import { DataActionsPanel } from './components/data-actions-panel'
import { GeneralPanel } from './components/general-panel'
import { MetaConnectionCard } from './components/meta-connection-card'
import { SecurityAccountPanel } from './components/security-account-panel'

const tabs = [
  'general',
  'integrations',
  'notifications',
  'templates',
  'security',
  'appearance',
  'data',
] as const
type Tab = (typeof tabs)[number]

function Integrations() {
  const canManage = useCan('hospital:manage')
  const { data: user } = useUser()
  return (
    <section aria-labelledby="integrations-title" className="space-y-3">
      <h2 id="integrations-title" className="text-lg font-semibold">
        Integrations
      </h2>
      {canManage ? (
        <>
          <MetaConnectionCard />
          <MessagingSettingsCard />
        </>
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
  )
}

/**
 * /settings: General (the hospital's settings and booking page, issue 26; ?tab=general),
 * Integrations (Meta lead ads, issue 8; messaging, issue 25), Notifications and Templates
 * (issue 25). ?tab= opens a tab. The spec's other sections (Security, Appearance, Data) come
 * with their own issues.
 */
export function SettingsPage() {
  const { data: user } = useUser()
  const [location, navigate] = useLocation()
  const asked = new URLSearchParams(useSearch()).get('tab')
  const tab: Tab = tabs.find((t) => t === asked) ?? 'integrations'
  const inHospital = user?.hospitalId !== null
  return (
    <div className="mx-auto w-full max-w-3xl space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Settings</h1>
        <p className="text-slate-600">
          Your hospital&apos;s connections, notifications and messages.
        </p>
      </div>
      {inHospital ? (
        <Tabs
          value={tab}
          onValueChange={(t) =>
            navigate(t === 'integrations' ? location : `${location}?tab=${t}`, { replace: true })
          }
        >
          <TabsList aria-label="Settings sections">
            <TabsTrigger value="general">General</TabsTrigger>
            <TabsTrigger value="integrations">Integrations</TabsTrigger>
            <TabsTrigger value="notifications">Notifications</TabsTrigger>
            <TabsTrigger value="templates">Templates</TabsTrigger>
            <TabsTrigger value="security">Security</TabsTrigger>
            <TabsTrigger value="appearance">Appearance</TabsTrigger>
            <TabsTrigger value="data">Data</TabsTrigger>
          </TabsList>
          <TabsContent value="integrations" className="space-y-3">
            <Integrations />
            <p className="text-sm">
              <Link
                href={paths.sandboxOutbox}
                className="inline-flex items-center gap-1 text-brand-700 underline"
              >
                <FlaskConical className="size-4" aria-hidden="true" />
                Open the Sandbox Outbox
              </Link>
            </p>
          </TabsContent>
          <TabsContent value="general">
            <GeneralPanel />
          </TabsContent>
          <TabsContent value="notifications">
            <NotificationsPanel />
          </TabsContent>
          <TabsContent value="templates">
            <TemplatesPanel />
          </TabsContent>
          <TabsContent value="security">
            <SecurityAccountPanel />
          </TabsContent>
          <TabsContent value="appearance">
            <AppearancePanel />
          </TabsContent>
          <TabsContent value="data">
            <DataActionsPanel />
          </TabsContent>
        </Tabs>
      ) : (
        <>
          <Integrations />
          <AppearancePanel />
        </>
      )}
    </div>
  )
}
