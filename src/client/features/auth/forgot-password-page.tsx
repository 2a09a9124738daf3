import { zodResolver } from '@hookform/resolvers/zod'
import { MailCheck } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useSearch } from 'wouter'
import { Button } from '@/client/components/ui/button'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import { useDocumentTitle } from '@/client/lib/use-document-title'
import { errorMessage } from '@/client/lib/toast'
import {
  type RequestPasswordResetInput,
  requestPasswordResetInput,
} from '@/shared/schemas/password-reset'
import { useRequestPasswordReset } from './api/password-reset'
import { PasswordResetLayout } from './password-reset-layout'

/**
 * /forgot-password ("Forgot password?" on the sign-in page, issue 40 item 7): the email goes to
 * the server, which answers the same whether or not an account uses it; the link arrives by
 * email and opens /reset-password.
 */
export function ForgotPasswordPage() {
  const search = useSearch()
  const request = useRequestPasswordReset()
  const [sent, setSent] = useState<{ message: string; email: string } | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const title = sent ? 'Check your email' : 'Forgot your password?'
  useDocumentTitle(title)
  const form = useForm<RequestPasswordResetInput>({
    defaultValues: { email: new URLSearchParams(search).get('email') ?? '' },
    resolver: zodResolver(requestPasswordResetInput),
  })
  const errors = form.formState.errors

  // The form and the answer replace each other: focus moves to the new heading.
  useEffect(() => {
    if (sent) heading.current?.focus()
  }, [sent])

  const submit = form.handleSubmit(async ({ email }) => {
    try {
      const answer = await request.mutateAsync({ email })
      setSent({ message: answer.message, email })
    } catch (error) {
      form.setError('root', {
        type: 'server',
        message: errorMessage(error, 'We could not send the link. Please try again.'),
      })
    }
  })

  return (
    <PasswordResetLayout
      title={title}
      headingRef={heading}
      intro={
        sent
          ? undefined
          : 'Enter the email address you sign in with. We will email you a link to choose a new password.'
      }
    >
      {sent ? (
        <div className="space-y-4">
          <div className="flex items-start gap-3">
            <MailCheck className="mt-0.5 size-6 shrink-0 text-brand-700" aria-hidden="true" />
            <p role="status" className="text-sm text-slate-800">
              {sent.message}
            </p>
          </div>
          <p className="text-xs text-slate-600 [overflow-wrap:anywhere]">
            No email at {sent.email} after a few minutes? Check your spam folder, or ask your
            hospital&apos;s administrator to send you a link from Admin.
          </p>
          <Button
            type="button"
            variant="link"
            className="w-full"
            onClick={() => {
              setSent(null)
              request.reset()
            }}
          >
            Use a different email address
          </Button>
        </div>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
          <Field id="reset-email" label="Email" required error={errors.email?.message}>
            <Input
              id="reset-email"
              type="email"
              autoComplete="username"
              aria-invalid={Boolean(errors.email)}
              aria-describedby={errors.email ? 'reset-email-error' : undefined}
              {...form.register('email')}
            />
          </Field>
          {errors.root ? (
            <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-700">
              {errors.root.message}
            </p>
          ) : null}
          <Button
            type="submit"
            className="w-full"
            loading={request.isPending}
            loadingText="Sending..."
          >
            Send reset link
          </Button>
        </form>
      )}
    </PasswordResetLayout>
  )
}
