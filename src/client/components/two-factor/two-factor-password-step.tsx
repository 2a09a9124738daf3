import { type FormEvent, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { type TwoFactorSetup, useEnableTwoFactor } from './api/enrol-two-factor'

function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.jsonMessage ?? 'Could not check your password.'
  return 'Could not reach the server. Check your connection and try again.'
}

/** Step 1: the account password, which unlocks a new authenticator key. */
export function TwoFactorPasswordStep({ onReady }: { onReady: (setup: TwoFactorSetup) => void }) {
  const enable = useEnableTwoFactor()
  const [error, setError] = useState<string | null>(null)

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    setError(null)
    const password = String(new FormData(event.currentTarget).get('password') ?? '')
    if (!password) return setError('Enter your password.')
    try {
      onReady(await enable.mutateAsync({ password }))
    } catch (e) {
      setError(messageOf(e))
    }
  }

  return (
    <section aria-labelledby="step-password" className="space-y-4">
      <h2 id="step-password" className="text-base font-semibold">
        Step 1 of 2: Confirm your password
      </h2>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field id="password" label="Password" error={error ?? undefined}>
          <Input
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            aria-invalid={Boolean(error)}
            aria-describedby={error ? 'password-error' : undefined}
            autoFocus
          />
        </Field>
        <Button
          type="submit"
          className="w-full"
          loading={enable.isPending}
          loadingText="Checking..."
        >
          Continue
        </Button>
      </form>
    </section>
  )
}
