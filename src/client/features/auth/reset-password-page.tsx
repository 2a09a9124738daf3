import { zodResolver } from '@hookform/resolvers/zod'
import { CircleCheck } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link } from 'wouter'
import { Button } from '@/client/components/ui/button'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { useDocumentTitle } from '@/client/lib/use-document-title'
import { errorMessage } from '@/client/lib/toast'
import { paths, serverPaths } from '@/client/paths'
import { PASSWORD_MIN } from '@/shared/schemas/auth'
import {
  RESET_LINK_INVALID_MESSAGE,
  type ResetPasswordForm,
  resetPasswordForm,
} from '@/shared/schemas/password-reset'
import { useConfirmPasswordReset } from './api/password-reset'
import { PasswordResetLayout } from './password-reset-layout'

/** The secret travels in the fragment (/reset-password#<token>): it never reaches a server log. */
function tokenFromHash(): string {
  return decodeURIComponent(window.location.hash.replace(/^#/, '')).trim()
}

/**
 * /reset-password (the emailed link, issue 40 item 7): choose a new password. The link works
 * once; afterwards every session of the account has ended, so the person signs in again (with
 * their two-factor code, if they use one).
 */
export function ResetPasswordPage() {
  const [token] = useState(tokenFromHash)
  const confirm = useConfirmPasswordReset()
  const [done, setDone] = useState<string | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const title = done ? 'Password changed' : 'Choose a new password'
  useDocumentTitle(title)
  const form = useForm<ResetPasswordForm>({
    defaultValues: { newPassword: '', confirmPassword: '' },
    resolver: zodResolver(resetPasswordForm),
  })
  const errors = form.formState.errors

  useEffect(() => {
    if (done) heading.current?.focus()
  }, [done])

  // The token stays out of the address bar (and so of history and screenshots) once read.
  useEffect(() => {
    if (window.location.hash)
      window.history.replaceState(null, '', window.location.pathname + window.location.search)
  }, [])

  const submit = form.handleSubmit(async (values) => {
    try {
      const answer = await confirm.mutateAsync({ token, ...values })
      setDone(answer.message)
    } catch (error) {
      const issues = error instanceof ApiError ? error.fieldErrors : {}
      if (issues.newPassword)
        form.setError('newPassword', { type: 'server', message: issues.newPassword })
      else
        form.setError('root', {
          type: 'server',
          message: errorMessage(error, 'We could not change the password. Please try again.'),
        })
    }
  })

  let body
  if (done)
    body = (
      <div className="space-y-4">
        <div className="flex items-start gap-3">
          <CircleCheck className="mt-0.5 size-6 shrink-0 text-green-700" aria-hidden="true" />
          <p role="status" className="text-sm text-slate-800">
            {done}
          </p>
        </div>
        <Button asChild className="w-full">
          <Link href={paths.login}>Sign in</Link>
        </Button>
      </div>
    )
  else if (!token)
    body = (
      <div className="space-y-3">
        <p role="alert" className="text-sm text-red-700">
          {RESET_LINK_INVALID_MESSAGE}
        </p>
        <Link href={paths.forgotPassword} className="text-sm font-medium text-brand-700 underline">
          Ask for a new link
        </Link>
      </div>
    )
  else
    body = (
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
        <Field
          id="reset-new-password"
          label="New password"
          required
          error={errors.newPassword?.message}
          hint={`At least ${PASSWORD_MIN} characters`}
        >
          <Input
            id="reset-new-password"
            type="password"
            autoComplete="new-password"
            aria-invalid={Boolean(errors.newPassword)}
            aria-describedby={errors.newPassword ? 'reset-new-password-error' : undefined}
            {...form.register('newPassword')}
          />
        </Field>
        <Field
          id="reset-confirm-password"
          label="Confirm new password"
          required
          error={errors.confirmPassword?.message}
        >
          <Input
            id="reset-confirm-password"
            type="password"
            autoComplete="new-password"
            aria-invalid={Boolean(errors.confirmPassword)}
            aria-describedby={errors.confirmPassword ? 'reset-confirm-password-error' : undefined}
            {...form.register('confirmPassword')}
          />
        </Field>
        {errors.root ? (
          <div role="alert" className="space-y-2 rounded-md bg-red-50 p-3 text-sm text-red-700">
            <p>{errors.root.message}</p>
            {errors.root.message === RESET_LINK_INVALID_MESSAGE ? (
              <Link href={paths.forgotPassword} className="font-medium underline">
                Ask for a new link
              </Link>
            ) : null}
          </div>
        ) : null}
        <Button
          type="submit"
          className="w-full"
          loading={confirm.isPending}
          loadingText="Saving..."
        >
          Set new password
        </Button>
      </form>
    )

  return (
    <PasswordResetLayout
      title={title}
      headingRef={heading}
      intro={
        done
          ? undefined
          : 'Choosing a new password signs you out on every device. Two-factor authentication, if you use it, stays on.'
      }
    >
      {body}
    </PasswordResetLayout>
  )
}

/** /reset-password opened while signed in: the link is used signed out (it ends every session). */
export function ResetPasswordWhileSignedIn() {
  return (
    <div className="min-w-0 space-y-4">
      <h1 className="text-2xl font-bold">Reset password</h1>
      <p className="text-sm text-slate-700">
        You are signed in already. A password reset link is used signed out: sign out first, then
        open the link from the email again.
      </p>
      <Button asChild variant="outline">
        <a href={serverPaths.logout}>Sign out</a>
      </Button>
    </div>
  )
}
