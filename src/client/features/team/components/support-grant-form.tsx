import { zodResolver } from '@hookform/resolvers/zod'
import { useForm, useWatch } from 'react-hook-form'
import { Button } from '@/client/components/ui/button'
import { Field } from '@/client/components/ui/field'
import { NativeSelect, Textarea } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import {
  type GrantSupportAccessInput,
  grantSupportAccessInput,
  type SupportScope,
  supportToasts,
} from '@/shared/schemas/support-access'
import { useGrantSupportAccess } from '../api/support-access'

const HOUR_CHOICES = [1, 2, 4, 8, 24, 48, 72] as const

const SCOPE_CHOICES: { value: SupportScope; label: string; hint: string }[] = [
  {
    value: 'support',
    label: 'Support (recommended)',
    hint: 'Reads everything and corrects patients, leads, appointments, billing and templates. Cannot change your team, security settings or provider credentials, export or delete data, or restore backups.',
  },
  {
    value: 'full_admin',
    label: 'Full admin',
    hint: 'Everything your own admins can do.',
  },
]

/** The warning shown while "Full admin" is chosen. */
export const FULL_ADMIN_WARNING =
  'Full admin lets Arogya support do everything your admins can: invite members and change roles, turn off two-factor, change provider credentials, export or delete all data and restore backups. Grant it only for a task that needs it, for as short a time as you can.'

/**
 * Grant support access: for how long, why, and how much (support or, explicitly, full admin);
 * validated by the same schema as the server.
 */
export function SupportGrantForm() {
  const form = useForm<GrantSupportAccessInput>({
    defaultValues: { hours: 2, reason: '', scope: 'support' },
    resolver: zodResolver(grantSupportAccessInput),
  })
  const grant = useGrantSupportAccess()
  const errors = form.formState.errors
  const scope = useWatch({ control: form.control, name: 'scope' })

  const submit = form.handleSubmit(async (values) => {
    try {
      const g = await grant.mutateAsync(values)
      toast.success(
        supportToasts.granted,
        `Arogya support may act in your hospital until ${new Date(g.expiresAt).toLocaleString('en-IN')}.`,
      )
      form.reset({ hours: values.hours, reason: '', scope: 'support' })
    } catch (error) {
      if (error instanceof ApiError)
        for (const [path, message] of Object.entries(error.fieldErrors))
          if (path === 'hours' || path === 'reason' || path === 'scope')
            form.setError(path, { type: 'server', message })
      toast.error(
        supportToasts.grantFailed,
        error instanceof ApiError ? error.serverMessage : 'Please try again.',
      )
    }
  })

  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      className="grid gap-4 sm:grid-cols-[10rem_1fr]"
    >
      <Field id="support-hours" label="For" required error={errors.hours?.message}>
        <NativeSelect
          id="support-hours"
          aria-invalid={Boolean(errors.hours)}
          {...form.register('hours', { valueAsNumber: true })}
        >
          {HOUR_CHOICES.map((h) => (
            <option key={h} value={h}>
              {h} hour{h === 1 ? '' : 's'}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field id="support-reason" label="Reason" required error={errors.reason?.message}>
        <Textarea
          id="support-reason"
          aria-invalid={Boolean(errors.reason)}
          aria-describedby={errors.reason ? 'support-reason-error' : undefined}
          maxLength={500}
          placeholder="e.g. Help us set up WhatsApp templates"
          {...form.register('reason')}
        />
      </Field>
      <fieldset className="min-w-0 space-y-2 sm:col-span-2">
        <legend className="text-sm font-medium text-slate-800">Access</legend>
        {SCOPE_CHOICES.map((c) => (
          <label key={c.value} className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              value={c.value}
              className="mt-1"
              aria-describedby={`support-scope-${c.value}-hint`}
              {...form.register('scope')}
            />
            <span className="min-w-0 [overflow-wrap:anywhere]">
              <span className="font-medium text-slate-900">{c.label}</span>
              <span id={`support-scope-${c.value}-hint`} className="block text-xs text-slate-600">
                {c.hint}
              </span>
            </span>
          </label>
        ))}
        {scope === 'full_admin' ? (
          <p
            role="alert"
            className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
          >
            {FULL_ADMIN_WARNING}
          </p>
        ) : null}
        {errors.scope?.message ? (
          <p role="alert" className="text-xs text-red-600">
            {errors.scope.message}
          </p>
        ) : null}
      </fieldset>
      <div className="sm:col-span-2">
        <Button type="submit" disabled={grant.isPending}>
          {scope === 'full_admin' ? 'Grant full admin access' : 'Grant access'}
        </Button>
      </div>
    </form>
  )
}
