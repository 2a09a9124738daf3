import { type FormEvent, useState } from 'react'
import { Link } from 'wouter'
import { Button } from '@/client/components/ui/button'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { paths } from '@/client/paths'
import { useSignIn } from '../api/sign-in'
import { TwoFactorCodeForm } from './two-factor-code-form'

/**
 * What went wrong, in the server's words where it gives them: an unverified email (403) and
 * throttling (429, with how long to wait) explain themselves.
 */
function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return 'Invalid email or password.'
    if (error.status === 429)
      return (
        error.jsonMessage ?? 'Too many sign-in attempts. Please wait a few minutes and try again.'
      )
    return error.serverMessage
  }
  return 'Could not reach the server. Check your connection and try again.'
}

export function SignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const signIn = useSignIn()
  const [needsCode, setNeedsCode] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function submitPassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    setError(null)
    const data = new FormData(event.currentTarget)
    const email = String(data.get('email') ?? '').trim()
    const password = String(data.get('password') ?? '')
    if (!email || !password) return setError('Enter your email and password.')
    try {
      const result = await signIn.mutateAsync({ email, password })
      if (result.twoFactorRedirect) setNeedsCode(true)
      else onSignedIn()
    } catch (e) {
      setError(messageOf(e))
    }
  }

  if (needsCode) return <TwoFactorCodeForm onSignedIn={onSignedIn} />

  return (
    <form onSubmit={submitPassword} className="space-y-4" noValidate>
      <Field id="email" label="Email">
        <Input id="email" name="email" type="email" autoComplete="username" required />
      </Field>
      <Field id="password" label="Password">
        <Input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
        />
      </Field>
      <p className="-mt-2 text-right text-sm">
        <Link href={paths.forgotPassword} className="font-medium text-brand-700 underline">
          Forgot password?
        </Link>
      </p>
      {error ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <Button
        type="submit"
        className="w-full"
        loading={signIn.isPending}
        loadingText="Signing in..."
      >
        Sign In
      </Button>
    </form>
  )
}
