import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiError } from '@/client/lib/api-client'
import { useCan } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { useNotificationSettings, useSaveNotificationSettings } from '../api/notification-settings'
import type { NotificationSettings } from '../types'
import { PendingRemindersCard } from './pending-reminders-card'

type Toggle = 'emailEnabled' | 'smsEnabled' | 'pushEnabled' | 'appointmentReminders'
const toggles: [Toggle, string, string][] = [
  ['emailEnabled', 'Email notifications', 'Reminders and notices by email.'],
  ['smsEnabled', 'SMS notifications', 'Off: no SMS reminders are sent.'],
  ['pushEnabled', 'Push notifications', 'Alerts in the browser.'],
  ['appointmentReminders', 'Appointment reminders', 'Patients are reminded before a visit.'],
]

function SettingsForm({ saved, canEdit }: { saved: NotificationSettings; canEdit: boolean }) {
  const [v, setV] = useState(saved)
  const save = useSaveNotificationSettings()
  async function submit(e: React.FormEvent) {
    e.preventDefault()
    try {
      await save.mutateAsync(v)
      toast.success('Settings saved successfully')
    } catch (error) {
      toast.error('Error', error instanceof ApiError ? error.serverMessage : 'Failed to save.')
    }
  }
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <fieldset disabled={!canEdit} className="space-y-3">
        {toggles.map(([key, label, hint]) => (
          <label key={key} className="flex items-start gap-3 text-sm">
            <input
              type="checkbox"
              role="switch"
              className="mt-0.5 size-4"
              checked={v[key]}
              onChange={(e) => setV({ ...v, [key]: e.target.checked })}
            />
            <span>
              <span className="font-medium">{label}</span>
              <span className="block text-slate-600">{hint}</span>
            </span>
          </label>
        ))}
        <div className="grid gap-3 sm:grid-cols-3">
          <Field id="quiet-start" label="Promotional messages from" hint="Quiet hours end">
            <Input
              id="quiet-start"
              type="time"
              value={v.quietHoursStart}
              onChange={(e) => setV({ ...v, quietHoursStart: e.target.value })}
            />
          </Field>
          <Field id="quiet-end" label="Promotional messages until" hint="Quiet hours start">
            <Input
              id="quiet-end"
              type="time"
              value={v.quietHoursEnd}
              onChange={(e) => setV({ ...v, quietHoursEnd: e.target.value })}
            />
          </Field>
          <Field id="follow-up-days" label="Follow-up reminder days">
            <Input
              id="follow-up-days"
              type="number"
              min={1}
              max={90}
              value={v.followUpDays}
              onChange={(e) => setV({ ...v, followUpDays: Number(e.target.value) })}
            />
          </Field>
        </div>
      </fieldset>
      {canEdit ? (
        <div className="flex justify-end">
          <Button type="submit" loading={save.isPending} loadingText="Saving...">
            Save notification settings
          </Button>
        </div>
      ) : (
        <p className="text-sm text-slate-600">Only your hospital&apos;s admin can change these.</p>
      )}
    </form>
  )
}

/** Settings → Notifications: the spec's toggles, quiet hours, follow-up days, pending reminders. */
export function NotificationsPanel() {
  const query = useNotificationSettings()
  const canEdit = useCan('hospital:manage')
  return (
    <section aria-labelledby="notifications-title" className="space-y-4">
      <h2 id="notifications-title" className="text-lg font-semibold">
        Notifications
      </h2>
      <Card>
        <CardHeader>
          <CardTitle>Notification settings</CardTitle>
        </CardHeader>
        <CardContent>
          {query.isPending ? (
            <div className="space-y-2" aria-label="Loading notification settings">
              <Skeleton className="h-8 w-full" />
              <Skeleton className="h-8 w-full" />
            </div>
          ) : query.isError ? (
            <div role="alert" className="space-y-2 text-sm text-red-700">
              <p>Failed to load the notification settings.</p>
              <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
                Try again
              </Button>
            </div>
          ) : (
            <SettingsForm key={query.dataUpdatedAt} saved={query.data} canEdit={canEdit} />
          )}
        </CardContent>
      </Card>
      <PendingRemindersCard />
    </section>
  )
}
