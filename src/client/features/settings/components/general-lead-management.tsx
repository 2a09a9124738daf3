import { useFormContext } from 'react-hook-form'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import type { SettingsFormInput, SettingsFormOutput } from '@/shared/schemas/settings'
import { SettingSwitch } from './setting-switch'

/** General → Lead management: these change what happens to every new lead. */
export function GeneralLeadManagement() {
  const form = useFormContext<SettingsFormInput, unknown, SettingsFormOutput>()
  const errors = form.formState.errors.leadManagement
  const number = (name: 'followUpDays' | 'maxContactAttempts') => ({
    id: `lead-${name}`,
    type: 'number' as const,
    inputMode: 'numeric' as const,
    'aria-invalid': Boolean(errors?.[name]),
    'aria-describedby': errors?.[name] ? `lead-${name}-error` : undefined,
    ...form.register(`leadManagement.${name}`, { valueAsNumber: true }),
  })
  return (
    <Card>
      <CardHeader>
        <CardTitle>Lead management</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <SettingSwitch
          id="lead-autoAssignLeads"
          label="Auto-assign leads"
          hint="New leads without an owner go to your active receptionists in turn."
          registration={form.register('leadManagement.autoAssignLeads')}
        />
        <SettingSwitch
          id="lead-priorityScoring"
          label="Priority scoring"
          hint="A new lead's priority is set from its source, service interest and how recent it is, unless someone picks one."
          registration={form.register('leadManagement.priorityScoring')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            id="lead-followUpDays"
            label="Follow-up reminder days"
            error={errors?.followUpDays?.message}
            hint="A lead is due a follow-up this many days after the last contact."
          >
            <Input {...number('followUpDays')} min={1} max={90} />
          </Field>
          <Field
            id="lead-maxContactAttempts"
            label="Max contact attempts"
            error={errors?.maxContactAttempts?.message}
            hint="Leads contacted more often than this are flagged."
          >
            <Input {...number('maxContactAttempts')} min={1} max={20} />
          </Field>
        </div>
      </CardContent>
    </Card>
  )
}
