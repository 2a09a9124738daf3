import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import { Button } from '@/client/components/ui/button'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import type { CatalogueService } from '@/shared/schemas/billing'
import { useSaveService } from '../api/save-service'
import {
  newServiceValues,
  serviceDurations,
  serviceFormSchema,
  type ServiceFormValues,
  serviceGstRates,
  serviceValuesOf,
} from './service-form-values'

type Name = keyof ServiceFormValues

/** Add a service to the catalogue, or edit one (name, code, price, GST, duration, flags). */
export function ServiceForm({
  service,
  onDone,
}: {
  /** null: a new service. */
  service: CatalogueService | null
  onDone: () => void
}) {
  const form = useForm<ServiceFormValues, unknown, z.output<typeof serviceFormSchema>>({
    defaultValues: service ? serviceValuesOf(service) : newServiceValues,
    resolver: zodResolver(serviceFormSchema),
  })
  const save = useSaveService()
  const errors = form.formState.errors
  const prefix = service ? `service-${service.id}` : 'service-new'
  const a11y = (name: Name) => ({
    id: `${prefix}-${name}`,
    'aria-invalid': Boolean(errors[name]),
    'aria-describedby': errors[name] ? `${prefix}-${name}-error` : undefined,
  })

  const submit = form.handleSubmit(async (input) => {
    try {
      const saved = await save.mutateAsync(
        service ? { id: service.id, input } : { id: null, input },
      )
      toast.success(service ? 'Service updated' : 'Service added', saved.name)
      onDone()
    } catch (error) {
      if (error instanceof ApiError) {
        for (const [path, message] of Object.entries(error.fieldErrors)) {
          if (path in newServiceValues) form.setError(path as Name, { type: 'server', message })
        }
        if (error.status === 409) {
          form.setError('name', { type: 'server', message: error.serverMessage })
        }
      }
      toast.error(
        'Failed to save service',
        error instanceof ApiError ? error.serverMessage : undefined,
      )
    }
  })

  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={service ? `Edit ${service.name}` : 'Add a service'}
      className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-3"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id={`${prefix}-name`} label="Service name" required error={errors.name?.message}>
          <Input {...a11y('name')} {...form.register('name')} maxLength={120} />
        </Field>
        <Field id={`${prefix}-code`} label="SAC/HSN code" error={errors.code?.message}>
          <Input {...a11y('code')} {...form.register('code')} inputMode="numeric" maxLength={8} />
        </Field>
        <Field
          id={`${prefix}-defaultPrice`}
          label="Price (₹)"
          required
          error={errors.defaultPrice?.message}
        >
          <Input {...a11y('defaultPrice')} {...form.register('defaultPrice')} inputMode="decimal" />
        </Field>
        <Field id={`${prefix}-gstRate`} label="GST rate" error={errors.gstRate?.message}>
          <NativeSelect {...a11y('gstRate')} {...form.register('gstRate')}>
            {serviceGstRates.map((r) => (
              <option key={r} value={String(r)}>
                {r === 0 ? '0% (exempt)' : `${r}%`}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field
          id={`${prefix}-durationMinutes`}
          label="Duration"
          error={errors.durationMinutes?.message}
        >
          <NativeSelect {...a11y('durationMinutes')} {...form.register('durationMinutes')}>
            {serviceDurations.map((d) => (
              <option key={d} value={String(d)}>
                {d} minutes
              </option>
            ))}
          </NativeSelect>
        </Field>
        <div className="flex flex-wrap items-end gap-4 pb-2">
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4" {...form.register('bookable')} />
            Bookable online
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4" {...form.register('active')} />
            Active
          </label>
        </div>
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={onDone}
          disabled={save.isPending}
        >
          Cancel
        </Button>
        <Button type="submit" size="sm" loading={save.isPending} loadingText="Saving...">
          {service ? 'Save service' : 'Add service'}
        </Button>
      </div>
    </form>
  )
}
