import { zodResolver } from '@hookform/resolvers/zod'
import { FlaskConical } from 'lucide-react'
import { type ComponentType, lazy, type ReactNode, Suspense, useState } from 'react'
import { FormProvider, type Resolver, useForm } from 'react-hook-form'
import { Link, useLocation, useSearch } from 'wouter'
import { Button } from '@/client/components/ui/button'
import { Skeleton } from '@/client/components/ui/skeleton'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/client/components/ui/tabs'
import { MessagingSettingsCard } from '@/client/components/messaging/components/messaging-settings-card'
import { ApiError } from '@/client/lib/api-client'
import { useCan, useUser } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { paths } from '@/client/paths'
import type { Settings, SettingsFormInput, SettingsFormOutput } from '@/shared/schemas/settings'
import { useSaveSettings, useSettings } from './api/settings'
import { MetaConnectionCard } from './components/meta-connection-card'
import { SettingsSection } from './components/settings-section'
import {
  BookingPageSaver,
  firstTabWithErrors,
  type SettingsTab,
  settingsTab,
  toForm,
} from './components/settings-model'

/**
 * Each tab's code comes when the tab opens (Integrations' cards come with the page), so
 * /settings does not download every tab's forms at once (docs/decisions/038).
 */
function lazyPanel<P extends object>(
  load: () => Promise<Record<string, unknown>>,
  name: string,
): ComponentType<P> {
  const Panel = lazy(async () => ({ default: (await load())[name] as ComponentType<P> }))
  return function LazyPanel(props: P) {
    return (
      <Suspense fallback={<PanelSkeleton />}>
        <Panel {...props} />
      </Suspense>
    )
  }
}

function PanelSkeleton(): ReactNode {
  return (
    <div role="status" className="space-y-2">
      <span className="sr-only">Loading</span>
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-48 w-full" />
    </div>
  )
}

const GeneralPanel = lazyPanel(() => import('./components/general-panel'), 'GeneralPanel')
const BookingPageCard = lazyPanel<{ canEdit: boolean; saver: BookingPageSaver }>(
  () => import('./components/booking-page-card'),
  'BookingPageCard',
)
const NotificationFields = lazyPanel(
  () => import('./components/general-policy-fields'),
  'NotificationFields',
)
const SecurityPolicyFields = lazyPanel(
  () => import('./components/general-policy-fields'),
  'SecurityPolicyFields',
)
const DataPolicyFields = lazyPanel(
  () => import('./components/general-policy-fields'),
  'DataPolicyFields',
)
const PendingRemindersCard = lazyPanel(
  () => import('@/client/components/messaging/components/pending-reminders-card'),
  'PendingRemindersCard',
)
const TemplatesPanel = lazyPanel(
  () => import('@/client/components/messaging/components/templates-panel'),
  'TemplatesPanel',
)
const SecurityAccountPanel = lazyPanel(
  () => import('./components/security-account-panel'),
  'SecurityAccountPanel',
)
const AppearancePanel = lazyPanel(() => import('./components/appearance-panel'), 'AppearancePanel')
const VoiceSettingsCard = lazyPanel(
  () => import('./voice/voice-settings-card'),
  'VoiceSettingsCard',
)
const RingGroupCard = lazyPanel(
  () => import('@/client/features/calls-incoming/ring-group-card'),
  'RingGroupCard',
)
const DataActionsPanel = lazyPanel(
  () => import('./components/data-actions-panel'),
  'DataActionsPanel',
)

/**
 * The form's zod schema (with the full phone-number metadata) loads on the first check, not
 * with the page: the page shows before anyone types.
 */
const settingsResolver: Resolver<SettingsFormInput, unknown, SettingsFormOutput> = async (
  values,
  context,
  options,
) => {
  const { settingsForm } = await import('@/shared/schemas/settings')
  return zodResolver(settingsForm)(values, context, options)
}

type Tab = SettingsTab

function Integrations() {
  const canManage = useCan('integrations:manage')
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
          <VoiceSettingsCard />
          <RingGroupCard />
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
 * saved at once by Save Changes (PUT /api/settings, issue 27), with the General tab's booking
 * page card (its own API, saved when changed: one save button on the tab, issue 40 item 15).
 * Integrations, Templates, each member's own security and appearance, and the data actions
 * keep their own buttons: they are not hospital settings values.
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
  const canEditSecurity = useCan('security:manage')
  const form = useForm<SettingsFormInput, unknown, SettingsFormOutput>({
    defaultValues: toForm(saved),
    resolver: settingsResolver,
  })
  const save = useSaveSettings()
  // The booking page (General tab) has its own API; Save Changes saves it too, when changed.
  const [bookingPage] = useState(() => new BookingPageSaver())
  const submit = form.handleSubmit(
    async (values) => {
      try {
        await save.mutateAsync(values)
        const bookingSaved = await bookingPage.save()
        if (bookingSaved) toast.success('Settings saved successfully')
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
          <BookingPageCard canEdit={canEdit} saver={bookingPage} />
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
          <SettingsSection canEdit={canEditSecurity} onSubmit={onSubmit}>
            <SecurityPolicyFields />
          </SettingsSection>
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
 * /settings: the hospital's tabs (?tab= opens one; General by default, for every role). A platform
 * account without a hospital sees its integrations note and its own appearance only.
 */
export function SettingsPage() {
  const { data: user } = useUser()
  const [location, navigate] = useLocation()
  const asked = new URLSearchParams(useSearch()).get('tab')
  const tab: Tab = settingsTab(asked)
  const inHospital = user?.hospitalId !== null
  const setTab = (t: Tab) =>
    navigate(t === 'general' ? location : `${location}?tab=${t}`, { replace: true })
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
