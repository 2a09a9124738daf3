import { ShieldCheck, ShieldOff } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import type { TwoFactorSetup } from '@/client/components/two-factor/api/enrol-two-factor'
import { TwoFactorPasswordStep } from '@/client/components/two-factor/two-factor-password-step'
import { TwoFactorSetupStep } from '@/client/components/two-factor/two-factor-setup-step'
import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import type { CurrentUser } from '@/shared/schemas/auth'
import { useDisableTwoFactor } from '../api/security-two-factor'

function disableError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'INVALID_PASSWORD') return 'That password is not correct.'
    return error.jsonMessage ?? 'Could not turn off two-factor. Try again.'
  }
  return 'Could not reach the server. Check your connection and try again.'
}

/** Turning two-factor off: the password confirms it. */
function DisableForm({ user, onDone }: { user: CurrentUser; onDone: () => void }) {
  const disable = useDisableTwoFactor()
  const [error, setError] = useState<string | null>(null)
  const required = user.isSuperAdmin || user.twoFactorRequired === true

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    setError(null)
    const password = String(new FormData(event.currentTarget).get('password') ?? '')
    if (!password) return setError('Enter your password.')
    try {
      await disable.mutateAsync({ password })
      toast.success('Two-factor authentication is off')
      onDone()
    } catch (e) {
      setError(disableError(e))
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {required ? (
        <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          {user.isSuperAdmin
            ? 'Platform accounts must use two-factor authentication'
            : 'Your hospital requires two-factor authentication'}
          : after turning it off you must set it up again before you can go on.
        </p>
      ) : null}
      <Field id="disable-two-factor-password" label="Password" error={error ?? undefined}>
        <Input
          id="disable-two-factor-password"
          name="password"
          type="password"
          autoComplete="current-password"
          aria-invalid={Boolean(error)}
          aria-describedby={error ? 'disable-two-factor-password-error' : undefined}
          autoFocus
        />
      </Field>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button
          type="submit"
          variant="destructive"
          loading={disable.isPending}
          loadingText="Turning off..."
        >
          Turn off two-factor
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  )
}

/**
 * Two-factor authentication for the signed-in user: set it up in the browser (password, QR
 * code, backup codes shown once, a first code), or turn it off with the password.
 */
export function SecurityTwoFactorCard({ user }: { user: CurrentUser }) {
  const [mode, setMode] = useState<'view' | 'enrol' | 'disable'>('view')
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null)
  const on = user.twoFactorEnabled

  function reset() {
    setSetup(null)
    setMode('view')
  }

  let body
  if (mode === 'enrol' && !on) {
    body = setup ? (
      <TwoFactorSetupStep setup={setup} onEnabled={reset} />
    ) : (
      <div className="space-y-3">
        <TwoFactorPasswordStep onReady={setSetup} />
        <Button type="button" variant="outline" className="w-full" onClick={reset}>
          Cancel
        </Button>
      </div>
    )
  } else if (mode === 'disable' && on) {
    body = <DisableForm user={user} onDone={reset} />
  } else {
    body = on ? (
      <Button variant="outline" onClick={() => setMode('disable')}>
        <ShieldOff aria-hidden="true" />
        Turn off two-factor
      </Button>
    ) : (
      <Button onClick={() => setMode('enrol')}>
        <ShieldCheck aria-hidden="true" />
        Set up two-factor
      </Button>
    )
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          Two-Factor Authentication
          <Badge variant={on ? 'green' : 'secondary'}>{on ? 'On' : 'Off'}</Badge>
        </CardTitle>
        <p className="text-sm text-slate-600">
          {on
            ? 'Signing in needs your password and a code from your authenticator app.'
            : 'Add a code from an authenticator app on your phone to your password, so a stolen password alone cannot sign in.'}
        </p>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  )
}
