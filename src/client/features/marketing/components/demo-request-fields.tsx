import type { UseFormReturn } from 'react-hook-form'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect } from '@/client/components/ui/input'
import { type PreferredTime, preferredTimeLabels } from '@/shared/schemas/demo-requests'

export interface DemoFormValues {
  name: string
  organization: string
  mobile: string
  email: string
  city: string
  preferredTime: PreferredTime
}

export const emptyDemoForm: DemoFormValues = {
  name: '',
  organization: '',
  mobile: '',
  email: '',
  city: '',
  preferredTime: 'any',
}

const text = [
  { name: 'name', label: 'Your name', required: true, type: 'text', autoComplete: 'name' },
  {
    name: 'organization',
    label: 'Clinic or hospital name',
    required: true,
    type: 'text',
    autoComplete: 'organization',
  },
] as const

const optional = [
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { name: 'city', label: 'City', type: 'text', autoComplete: 'address-level2' },
] as const

/** The demo request inputs, each labelled and tied to its error message. */
export function DemoRequestFields({
  form,
  times,
}: {
  form: UseFormReturn<DemoFormValues>
  times: readonly PreferredTime[]
}) {
  const { errors } = form.formState
  const a11y = (name: keyof DemoFormValues) => ({
    id: `demo-${name}`,
    'aria-invalid': Boolean(errors[name]),
    'aria-describedby': errors[name] ? `demo-${name}-error` : undefined,
  })
  return (
    <>
      {text.map((f) => (
        <Field
          key={f.name}
          id={`demo-${f.name}`}
          label={f.label}
          required
          error={errors[f.name]?.message}
        >
          <Input
            type={f.type}
            autoComplete={f.autoComplete}
            {...a11y(f.name)}
            {...form.register(f.name)}
          />
        </Field>
      ))}
      <Field id="demo-mobile" label="Mobile number" required error={errors.mobile?.message}>
        <div className="relative">
          <span
            className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-slate-600"
            aria-hidden="true"
          >
            +91
          </span>
          <Input
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            className="pl-11"
            {...a11y('mobile')}
            aria-describedby={errors.mobile ? 'demo-mobile-error' : 'demo-mobile-hint'}
            {...form.register('mobile')}
          />
        </div>
        {errors.mobile ? null : (
          <p id="demo-mobile-hint" className="text-xs text-slate-500">
            10-digit mobile number, e.g. 98765 43210
          </p>
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        {optional.map((f) => (
          <Field
            key={f.name}
            id={`demo-${f.name}`}
            label={`${f.label} (optional)`}
            error={errors[f.name]?.message}
          >
            <Input
              type={f.type}
              autoComplete={f.autoComplete}
              {...a11y(f.name)}
              {...form.register(f.name)}
            />
          </Field>
        ))}
      </div>
      <Field
        id="demo-preferredTime"
        label="Preferred time for our call"
        error={errors.preferredTime?.message}
      >
        <NativeSelect {...a11y('preferredTime')} {...form.register('preferredTime')}>
          {times.map((t) => (
            <option key={t} value={t}>
              {preferredTimeLabels[t]}
            </option>
          ))}
        </NativeSelect>
      </Field>
    </>
  )
}
