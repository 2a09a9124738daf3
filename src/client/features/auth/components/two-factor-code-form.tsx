import { type FormEvent, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { useVerifyBackupCode, useVerifyTotp } from '../api/sign-in'

function messageOf(error: unknown, backup: boolean): string {
  if (error instanceof ApiError) {
    if (error.status === 401)
      return backup
        ? 'That backup code is not valid or has been used.'
        : 'That code is not valid. Try the newest code.'
    return error.jsonMessage ?? error.serverMessage
  }
  return 'Could not reach the server. Check your connection and try again.'
}

/** The second sign-in step: a code from the authenticator app, or one backup code. */
export function TwoFactorCodeForm({ onSignedIn }: { onSignedIn: () => void }) {
  const totp = useVerifyTotp()
  const backupCode = useVerifyBackupCode()
  const [backup, setBackup] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const id = backup ? 'backup-code' : 'code'

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    setError(null)
    const raw = String(new FormData(event.currentTarget).get(id) ?? '').trim()
    const code = backup ? raw : raw.replace(/\s/g, '')
    if (backup && !code) return setError('Enter one of your backup codes.')
    if (!backup && !/^\d{6}$/.test(code))
      return setError('Enter the 6-digit code from your authenticator app.')
    try {
      await (backup ? backupCode : totp).mutateAsync({ code })
      onSignedIn()
    } catch (e) {
      setError(messageOf(e, backup))
    }
  }

  function switchMode() {
    setError(null)
    setBackup((b) => !b)
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <p className="text-sm text-slate-600">
        {backup
          ? 'Enter one of the backup codes you saved when you set up two-factor. Each code works once.'
          : 'Two-factor authentication is on for this account.'}
      </p>
      <Field
        id={id}
        label={backup ? 'Backup code' : 'Authentication code'}
        error={error ?? undefined}
      >
        <Input
          key={id}
          id={id}
          name={id}
          inputMode={backup ? 'text' : 'numeric'}
          autoComplete={backup ? 'off' : 'one-time-code'}
          autoCapitalize="off"
          spellCheck={false}
          maxLength={backup ? 40 : 7}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${id}-error` : undefined}
          autoFocus
        />
      </Field>
      <Button
        type="submit"
        className="w-full"
        loading={totp.isPending || backupCode.isPending}
        loadingText="Verifying..."
      >
        Verify
      </Button>
      <Button type="button" variant="link" className="w-full" onClick={switchMode}>
        {backup ? 'Use a code from your authenticator app' : 'Use a backup code instead'}
      </Button>
    </form>
  )
}
