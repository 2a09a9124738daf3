import { type FormEvent, useEffect, useRef, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { type TwoFactorSetup, useConfirmTwoFactor } from './api/enrol-two-factor'
import { groupSecret, secretOf } from './totp-secret'
import { CopyButton } from './copy-button'
import { TotpQrCode } from './totp-qr-code'

function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401)
      return 'That code is not valid. Check the time on your phone and try the newest code.'
    return error.jsonMessage ?? 'Could not turn on two-factor. Try again.'
  }
  return 'Could not reach the server. Check your connection and try again.'
}

/** Step 2: scan the QR code (or type the key), keep the backup codes, confirm with a code. */
export function TwoFactorSetupStep({
  setup,
  onEnabled,
}: {
  setup: TwoFactorSetup
  /** After two-factor is on (the current user is reloaded by then). */
  onEnabled?: () => void
}) {
  const confirm = useConfirmTwoFactor()
  const [error, setError] = useState<string | null>(null)
  const secret = secretOf(setup.totpURI)
  const heading = useRef<HTMLHeadingElement>(null)
  // The password form is gone: keyboard and screen-reader users continue from this heading.
  useEffect(() => heading.current?.focus(), [])

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    setError(null)
    const code = String(new FormData(event.currentTarget).get('code') ?? '').replace(/\s/g, '')
    if (!/^\d{6}$/.test(code))
      return setError('Enter the 6-digit code from your authenticator app.')
    try {
      await confirm.mutateAsync({ code })
      toast.success(
        'Two-factor authentication is on',
        'From now on, sign in with your password and a code from your app.',
      )
      onEnabled?.()
    } catch (e) {
      setError(messageOf(e))
    }
  }

  return (
    <section aria-labelledby="step-app" className="space-y-6">
      <h2
        id="step-app"
        ref={heading}
        tabIndex={-1}
        className="text-base font-semibold outline-none"
      >
        Step 2 of 2: Add Arogya CRM to your authenticator app
      </h2>

      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        <TotpQrCode uri={setup.totpURI} />
        <div className="w-full min-w-0 space-y-2">
          <p className="text-sm text-slate-700">
            Scan the QR code with your app. If you cannot scan it, add an account by hand and enter
            this key (time-based, 6 digits):
          </p>
          <p
            data-testid="totp-secret"
            className="rounded-md bg-slate-100 px-3 py-2 font-mono text-base tracking-wide break-words text-slate-900"
          >
            {groupSecret(secret)}
          </p>
          <CopyButton text={secret} label="Copy key" />
        </div>
      </div>

      <div className="space-y-2">
        <h3 className="text-sm font-semibold">Backup codes</h3>
        <p className="text-sm text-slate-700">
          Store these codes somewhere safe, such as a password manager or a printed sheet. If you
          lose your phone, each code signs you in once. They are shown only now.
        </p>
        <ul
          aria-label="Backup codes"
          className="grid grid-cols-2 gap-x-4 gap-y-1 rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-sm"
        >
          {setup.backupCodes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
        <CopyButton text={setup.backupCodes.join('\n')} label="Copy backup codes" />
      </div>

      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field
          id="code"
          label="6-digit code from your app"
          error={error ?? undefined}
          hint="The code changes every 30 seconds."
        >
          <Input
            id="code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? 'code-error' : undefined}
          />
        </Field>
        <Button
          type="submit"
          className="w-full"
          loading={confirm.isPending}
          loadingText="Turning on..."
        >
          Turn on two-factor
        </Button>
      </form>
    </section>
  )
}
