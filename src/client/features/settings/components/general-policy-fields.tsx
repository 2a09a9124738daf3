import { useFormContext } from 'react-hook-form'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import type { SettingsFormInput, SettingsFormOutput } from '@/shared/schemas/settings'
import { SettingSwitch } from './setting-switch'

type Form = ReturnType<typeof useFormContext<SettingsFormInput, unknown, SettingsFormOutput>>

function NumberField({
  form,
  name,
  label,
  hint,
  min,
  max,
  error,
}: {
  form: Form
  name: 'security.sessionHours' | 'data.backupRetentionDays'
  label: string
  hint: string
  min: number
  max: number
  error: string | undefined
}) {
  const id = name.replace('.', '-')
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <Input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        className="sm:w-40"
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
        {...form.register(name, { valueAsNumber: true })}
      />
    </Field>
  )
}

/** Security → the hospital's policy for every member (above each user's own account panel). */
export function SecurityPolicyFields() {
  const form = useFormContext<SettingsFormInput, unknown, SettingsFormOutput>()
  return (
    <Card>
      <CardHeader>
        <CardTitle>Hospital security policy</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <SettingSwitch
          id="security-requireTwoFactor"
          label="Require two-factor for every member"
          hint="Members without two-factor are sent to set it up after they sign in."
          registration={form.register('security.requireTwoFactor')}
          error={form.formState.errors.security?.requireTwoFactor?.message}
        />
        <SettingSwitch
          id="security-sessionTimeout"
          label="Session timeout"
          hint="Sign members out when their session is older than the duration below."
          registration={form.register('security.sessionTimeout')}
        />
        <NumberField
          form={form}
          name="security.sessionHours"
          label="Session duration (hours)"
          hint="From 1 to 72 hours."
          min={1}
          max={72}
          error={form.formState.errors.security?.sessionHours?.message}
        />
      </CardContent>
    </Card>
  )
}

/** Data → automatic backups and how long they are kept (above the export and erase actions). */
export function DataPolicyFields() {
  const form = useFormContext<SettingsFormInput, unknown, SettingsFormOutput>()
  return (
    <Card>
      <CardHeader>
        <CardTitle>Backups</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <SettingSwitch
          id="data-autoBackups"
          label="Automatic backups"
          hint="Back up the hospital's data every day."
          registration={form.register('data.autoBackups')}
        />
        <NumberField
          form={form}
          name="data.backupRetentionDays"
          label="Backup retention (days)"
          hint="Older backups are deleted. From 1 to 365 days."
          min={1}
          max={365}
          error={form.formState.errors.data?.backupRetentionDays?.message}
        />
      </CardContent>
    </Card>
  )
}

const toggles = [
  ['emailEnabled', 'Email notifications', 'Reminders and notices by email.'],
  ['smsEnabled', 'SMS notifications', 'Off: no SMS reminders are sent.'],
  ['pushEnabled', 'Push notifications', 'Alerts in the browser.'],
  ['appointmentReminders', 'Appointment reminders', 'Patients are reminded before a visit.'],
] as const

/** Notifications → the spec's toggles and the promotional quiet hours. */
export function NotificationFields() {
  const form = useFormContext<SettingsFormInput, unknown, SettingsFormOutput>()
  const errors = form.formState.errors.notifications
  const time = (name: 'quietHoursStart' | 'quietHoursEnd') => ({
    id: `notifications-${name}`,
    type: 'time' as const,
    'aria-invalid': Boolean(errors?.[name]),
    'aria-describedby': errors?.[name] ? `notifications-${name}-error` : undefined,
    ...form.register(`notifications.${name}`),
  })
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notification settings</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        {toggles.map(([key, label, hint]) => (
          <SettingSwitch
            key={key}
            id={`notifications-${key}`}
            label={label}
            hint={hint}
            registration={form.register(`notifications.${key}`)}
          />
        ))}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            id="notifications-quietHoursStart"
            label="Promotional messages from"
            hint="Quiet hours end"
            error={errors?.quietHoursStart?.message}
          >
            <Input {...time('quietHoursStart')} />
          </Field>
          <Field
            id="notifications-quietHoursEnd"
            label="Promotional messages until"
            hint="Quiet hours start"
            error={errors?.quietHoursEnd?.message}
          >
            <Input {...time('quietHoursEnd')} />
          </Field>
        </div>
      </CardContent>
    </Card>
  )
}
