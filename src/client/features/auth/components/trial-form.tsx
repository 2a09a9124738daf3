import { type FormEvent, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { trialSignUpInput } from '@/shared/schemas/auth'
import { useStartTrial } from '../api/sign-in'

export interface TrialSent {
  email: string
  message: string
}

const fields = [
  {
    name: 'hospitalName',
    label: 'Clinic or hospital name',
    type: 'text',
    autoComplete: 'organization',
  },
  { name: 'name', label: 'Your name', type: 'text', autoComplete: 'name' },
  { name: 'email', label: 'Work email', type: 'email', autoComplete: 'email' },
  {
    name: 'phone',
    label: 'Mobile number',
    type: 'tel',
    autoComplete: 'tel',
    hint: 'e.g. 98765 43210',
  },
  {
    name: 'password',
    label: 'Password',
    type: 'password',
    autoComplete: 'new-password',
    hint: '8 to 128 characters',
  },
] as const

/** The sign-up form; once sent, the parent shows where the activation email went. */
export function TrialForm({ onStarted }: { onStarted: (sent: TrialSent) => void }) {
  const trial = useStartTrial()
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [formError, setFormError] = useState<string | null>(null)

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    setFormError(null)
    const data = Object.fromEntries(new FormData(event.currentTarget)) as Record<string, string>
    const parsed = trialSignUpInput.safeParse(data)
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])))
      return
    }
    setErrors({})
    try {
      const result = await trial.mutateAsync({
        hospitalName: data.hospitalName ?? '',
        name: data.name ?? '',
        email: data.email ?? '',
        phone: data.phone ?? '',
        password: data.password ?? '',
      })
      onStarted({ email: parsed.data.email, message: result.message })
    } catch (e) {
      if (e instanceof ApiError) {
        setErrors(e.fieldErrors)
        setFormError(e.serverMessage)
      } else setFormError('Could not reach the server. Check your connection and try again.')
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      {fields.map((f) => (
        <Field
          key={f.name}
          id={f.name}
          label={f.label}
          required
          error={errors[f.name]}
          {...('hint' in f ? { hint: f.hint } : {})}
        >
          <Input
            id={f.name}
            name={f.name}
            type={f.type}
            autoComplete={f.autoComplete}
            aria-invalid={Boolean(errors[f.name])}
            aria-describedby={errors[f.name] ? `${f.name}-error` : undefined}
          />
        </Field>
      ))}
      {formError ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-700">
          {formError}
        </p>
      ) : null}
      <Button
        type="submit"
        className="w-full"
        loading={trial.isPending}
        loadingText="Creating your account..."
      >
        Start 14-day Free Trial
      </Button>
    </form>
  )
}
