import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { Button } from '@/client/components/ui/button'
import { Field } from '@/client/components/ui/field'
import { NativeSelect, Textarea } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import {
  type GrantSupportAccessInput,
  grantSupportAccessInput,
  supportToasts,
} from '@/shared/schemas/support-access'
import { useGrantSupportAccess } from '../api/support-access'

const HOUR_CHOICES = [1, 2, 4, 8, 24, 48, 72] as const

/** Grant support access: for how long, and why (validated by the same schema as the server). */
export function SupportGrantForm() {
  const form = useForm<GrantSupportAccessInput>({
    defaultValues: { hours: 2, reason: '' },
    resolver: zodResolver(grantSupportAccessInput),
  })
  const grant = useGrantSupportAccess()
  const errors = form.formState.errors

  const submit = form.handleSubmit(async (values) => {
    try {
      const g = await grant.mutateAsync(values)
      toast.success(
        supportToasts.granted,
        `Arogya support may act in your hospital until ${new Date(g.expiresAt).toLocaleString('en-IN')}.`,
      )
      form.reset({ hours: values.hours, reason: '' })
    } catch (error) {
      if (error instanceof ApiError)
        for (const [path, message] of Object.entries(error.fieldErrors))
          if (path === 'hours' || path === 'reason')
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
      <div className="sm:col-span-2">
        <Button type="submit" disabled={grant.isPending}>
          Grant access
        </Button>
      </div>
    </form>
  )
}
