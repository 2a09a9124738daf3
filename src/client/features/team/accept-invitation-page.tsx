import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link } from 'wouter'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent, CardHeader } from '@/client/components/ui/card'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import { Spinner } from '@/client/components/ui/spinner'
import { ApiError } from '@/client/lib/api-client'
import { useDocumentTitle } from '@/client/lib/use-document-title'
import { paths } from '@/client/paths'
import { roleLabels } from '@/shared/roles'
import {
  type AcceptInvitationForm,
  acceptInvitationForm,
  INVITATION_NOT_FOUND_MESSAGE,
} from '@/shared/schemas/team'
import { useAcceptInvitation, useInvitationDetails } from './api/accept-invitation'

/** The secret travels in the fragment (/invite#<token>), so it never reaches a server log. */
function tokenFromHash(): string {
  return decodeURIComponent(window.location.hash.replace(/^#/, '')).trim()
}

const errorText = (error: unknown) =>
  error instanceof ApiError
    ? (error.jsonMessage ?? INVITATION_NOT_FOUND_MESSAGE)
    : 'We could not check the invitation. Please try again.'

/** /invite: the invitee sets a password and is signed in (public; issue 27). */
export function AcceptInvitationPage() {
  useDocumentTitle('Accept invitation')
  const [token] = useState(tokenFromHash)
  const details = useInvitationDetails(token)
  const accept = useAcceptInvitation()
  const form = useForm<AcceptInvitationForm>({
    defaultValues: { password: '', confirmPassword: '' },
    resolver: zodResolver(acceptInvitationForm),
  })
  const errors = form.formState.errors

  const submit = form.handleSubmit(async ({ password }) => {
    try {
      await accept.mutateAsync({ token, password })
      // A fresh start of the app, now signed in.
      window.location.assign(paths.home)
    } catch (error) {
      const issues = error instanceof ApiError ? error.fieldErrors : {}
      if (issues.password) form.setError('password', { type: 'server', message: issues.password })
      else form.setError('root', { type: 'server', message: errorText(error) })
    }
  })

  let body
  if (!token)
    body = (
      <p role="alert" className="text-sm text-red-700">
        {INVITATION_NOT_FOUND_MESSAGE}
      </p>
    )
  else if (details.isPending)
    body = (
      <div className="flex justify-center p-6">
        <Spinner className="size-6" label="Checking the invitation" />
      </div>
    )
  else if (details.isError)
    body = (
      <div className="space-y-3">
        <p role="alert" className="text-sm text-red-700">
          {errorText(details.error)}
        </p>
        <Link href={paths.login} className="text-sm font-medium text-brand-700 underline">
          Go to sign in
        </Link>
      </div>
    )
  else {
    const d = details.data
    body = (
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
        <p className="text-sm text-slate-700 [overflow-wrap:anywhere]">
          <strong>{d.name}</strong>, you are invited to join <strong>{d.hospitalName}</strong> as{' '}
          {roleLabels[d.role]}. Your sign-in email is <strong>{d.email}</strong>.
        </p>
        <Field
          id="invite-password"
          label="Choose a password"
          required
          error={errors.password?.message}
          hint="At least 8 characters"
        >
          <Input
            id="invite-password"
            type="password"
            autoComplete="new-password"
            aria-invalid={Boolean(errors.password)}
            aria-describedby={errors.password ? 'invite-password-error' : undefined}
            {...form.register('password')}
          />
        </Field>
        <Field
          id="invite-confirm"
          label="Confirm password"
          required
          error={errors.confirmPassword?.message}
        >
          <Input
            id="invite-confirm"
            type="password"
            autoComplete="new-password"
            aria-invalid={Boolean(errors.confirmPassword)}
            aria-describedby={errors.confirmPassword ? 'invite-confirm-error' : undefined}
            {...form.register('confirmPassword')}
          />
        </Field>
        {errors.root ? (
          <p role="alert" className="text-sm text-red-700">
            {errors.root.message}
          </p>
        ) : null}
        <Button type="submit" className="w-full" loading={accept.isPending} loadingText="Joining">
          Join {d.hospitalName}
        </Button>
      </form>
    )
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-brand-50 to-white px-4 py-10">
      <div className="w-full max-w-md space-y-6">
        <Link href={paths.home} className="block text-center text-2xl font-bold text-brand-800">
          Arogya CRM
        </Link>
        <Card>
          <CardHeader>
            <h1 className="text-lg leading-tight font-semibold">Accept your invitation</h1>
          </CardHeader>
          <CardContent>{body}</CardContent>
        </Card>
      </div>
    </main>
  )
}

/** /invite opened while signed in: the link is for a new account. */
export function InvitationWhileSignedIn() {
  return (
    <div className="min-w-0 space-y-4">
      <h1 className="text-2xl font-bold">Invitation</h1>
      <p className="text-sm text-slate-700">
        You are signed in already. To accept an invitation for another email address, sign out first
        and open the link from the email again.
      </p>
      <Button asChild variant="outline">
        <a href="/api/logout">Sign out</a>
      </Button>
    </div>
  )
}
