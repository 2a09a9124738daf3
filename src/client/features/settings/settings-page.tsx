import { zodResolver } from '@hookform/resolvers/zod'
import { FlaskConical } from 'lucide-react'
import { FormProvider, useForm } from 'react-hook-form'
import { Link, useLocation, useSearch } from 'wouter'
import { Button } from '@/client/components/ui/button'
import { Skeleton } from '@/client/components/ui/skeleton'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/client/components/ui/tabs'
import { MessagingSettingsCard } from '@/client/components/messaging/components/messaging-settings-card'
import { PendingRemindersCard } from '@/client/components/messaging/components/pending-reminders-card'
import { TemplatesPanel } from '@/client/components/messaging/components/templates-panel'
import { ApiError } from '@/client/lib/api-client'
import { useCan, useUser } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { paths } from '@/client/paths'
import {
  type Settings,
  type SettingsFormInput,
  type SettingsFormOutput,
  settingsForm,
} from '@/shared/schemas/settings'
import { useSaveSettings, useSettings } from './api/settings'
import { AppearancePanel } from './components/appearance-panel'
import { BookingPageCard } from './components/booking-page-card'
import { DataActionsPanel } from './components/data-actions-panel'
import { GeneralPanel } from './components/general-panel'
import {
  DataPolicyFields,
  NotificationFields,
  SecurityPolicyFields,
} from './components/general-policy-fields'
import { MetaConnectionCard } from './components/meta-connection-card'
import { SecurityAccountPanel } from './components/security-account-panel'
import { SettingsSection } from './components/settings-section'
import { firstTabWithErrors, toForm } from './components/settings-model'

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
 * The hospital's settings: one form over the General, Notifications, Security and Data tabs,
 * saved at once by Save Changes (PUT /api/settings, issue 27). Integrations, Templates, the
 * booking card, each member's own security and appearance, and the data actions keep their
 * own buttons: they are not hospital settings values.
 */
function HospitalSettings({
  saved,
  tab,
  setTab,
}: {
  saved: Settings
  tab: Tab
  setTab: (t: Tab) => void
}) {
  const canEdit = useCan('hospital:manage')
  const form = useForm<SettingsFormInput, unknown, SettingsFormOutput>({
    defaultValues: toForm(saved),
    resolver: zodResolver(settingsForm),
  })
  const save = useSaveSettings()
  const submit = form.handleSubmit(
    async (values) => {
      try {
        await save.mutateAsync(values)
        toast.success('Settings saved successfully')
      } catch (error) {
        if (error instanceof ApiError) {
          for (const [path, message] of Object.entries(error.fieldErrors)) {
            if (path) form.setError(path as keyof SettingsFormInput, { type: 'server', message })
          }
          const first = Object.keys(error.fieldErrors)[0]?.split('.')[0]
          const next = first ? firstTabWithErrors({ [first]: {} }) : null
          if (next) setTab(next as Tab)
        }
        toast.error(
          'Failed to save settings',
          error instanceof ApiError ? error.serverMessage : 'Please try again.',
        )
      }
    },
    (errors) => {
      const next = firstTabWithErrors(errors)
      if (next) setTab(next as Tab)
      toast.error('Failed to save settings', 'Check the highlighted fields.')
    },
  )
  const onSubmit = (e: React.FormEvent) => void submit(e)
  const section = (children: React.ReactNode) => (
    <SettingsSection canEdit={canEdit} onSubmit={onSubmit}>
      {children}
    </SettingsSection>
  )
  return (
    <FormProvider {...form}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        {canEdit ? (
          <>
            <p className="text-sm text-slate-600">
              Changes on the General, Notifications, Security and Data tabs are saved together.
            </p>
            <Button
              type="button"
              onClick={() => void submit()}
              loading={save.isPending}
              loadingText="Saving..."
            >
              Save Changes
            </Button>
          </>
        ) : (
          <p className="text-sm text-slate-600">
            Only your hospital&apos;s admin can change these settings.
          </p>
        )}
      </div>
      <Tabs value={tab} onValueChange={(t) => setTab(t as Tab)}>
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
        <TabsContent value="general" className="space-y-4">
          <h2 className="text-lg font-semibold">General</h2>
          {section(<GeneralPanel />)}
          <BookingPageCard canEdit={canEdit} />
        </TabsContent>
        <TabsContent value="notifications" className="space-y-4">
          <h2 className="text-lg font-semibold">Notifications</h2>
          {section(<NotificationFields />)}
          <PendingRemindersCard />
        </TabsContent>
        <TabsContent value="templates">
          <TemplatesPanel />
        </TabsContent>
        <TabsContent value="security" className="space-y-4">
          <h2 className="text-lg font-semibold">Security</h2>
          {section(<SecurityPolicyFields />)}
          <SecurityAccountPanel />
        </TabsContent>
        <TabsContent value="appearance">
          <AppearancePanel />
        </TabsContent>
        <TabsContent value="data" className="space-y-4">
          <h2 className="text-lg font-semibold">Data</h2>
          {section(<DataPolicyFields />)}
          <DataActionsPanel />
        </TabsContent>
      </Tabs>
    </FormProvider>
  )
}

/** Loading, error, then the form over the saved settings (remade after each save). */
function HospitalSettingsLoader({ tab, setTab }: { tab: Tab; setTab: (t: Tab) => void }) {
  const query = useSettings()
  if (query.isPending)
    return (
      <div role="status" className="space-y-2">
        <span className="sr-only">Loading the settings</span>
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
    )
  if (query.isError)
    return (
      <div role="alert" className="space-y-2 text-sm text-red-700">
        <p>Failed to load the settings.</p>
        <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    )
  return <HospitalSettings key={query.dataUpdatedAt} saved={query.data} tab={tab} setTab={setTab} />
}

/**
 * /settings: the hospital's tabs (?tab= opens one; Integrations by default). A platform
 * account without a hospital sees its integrations note and its own appearance only.
 */
export function SettingsPage() {
  const { data: user } = useUser()
  const [location, navigate] = useLocation()
  const asked = new URLSearchParams(useSearch()).get('tab')
  const tab: Tab = tabs.find((t) => t === asked) ?? 'integrations'
  const inHospital = user?.hospitalId !== null
  const setTab = (t: Tab) =>
    navigate(t === 'integrations' ? location : `${location}?tab=${t}`, { replace: true })
  return (
    <div className="mx-auto w-full max-w-3xl space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Settings</h1>
        <p className="text-slate-600">
          Your hospital&apos;s profile, lead handling, connections, notifications and security.
        </p>
      </div>
      {inHospital ? (
        <HospitalSettingsLoader tab={tab} setTab={setTab} />
      ) : (
        <>
          <Integrations />
          <SecurityAccountPanel />
          <AppearancePanel />
        </>
      )}
    </div>
  )
}
