import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { Link, useSearch } from 'wouter'
import { Card, CardContent, CardHeader } from '@/client/components/ui/card'
import { paths } from '@/client/paths'
import { getUserQueryOptions } from '@/client/lib/current-user'
import { useDocumentTitle } from '@/client/lib/use-document-title'
import { CheckEmailPanel } from './components/check-email-panel'
import { SignInForm } from './components/sign-in-form'
import { TrialForm, type TrialSent } from './components/trial-form'

/** /login: sign in, or (mode=signup) start a free trial, then check the email it sends. */
export function LoginPage() {
  const search = useSearch()
  const signup = new URLSearchParams(search).get('mode') === 'signup'
  const queryClient = useQueryClient()
  const [sent, setSent] = useState<TrialSent | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  // Leaving sign-up ("Back to sign in", "Sign in") forgets the sent sign-up.
  if (sent && !signup) setSent(null)
  const checking = Boolean(sent && signup)
  const title = checking ? 'Check your email' : signup ? 'Start your free trial' : 'Sign in'
  useDocumentTitle(title)

  // The form and the panel replace each other: focus moves to the new heading, so it is read
  // out and keyboard users are not left on a button that is gone.
  const wasChecking = useRef(checking)
  useEffect(() => {
    if (wasChecking.current === checking) return
    wasChecking.current = checking
    heading.current?.focus()
  }, [checking])

  // Once the user is known the staff app takes over this address and sends them on: to the
  // page they asked for (?next=, this site only), else their home (staff-routes.tsx).
  async function signedIn() {
    await queryClient.resetQueries(getUserQueryOptions())
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-brand-50 to-white px-4 py-10">
      <div className="w-full max-w-md space-y-6">
        <Link href={paths.home} className="block text-center text-2xl font-bold text-brand-800">
          Arogya CRM
        </Link>
        <Card>
          <CardHeader>
            <h1
              ref={heading}
              tabIndex={-1}
              className="text-lg leading-tight font-semibold outline-none"
            >
              {title}
            </h1>
            {checking ? null : (
              <p className="text-sm text-slate-600">
                {signup
                  ? '14 days free on the Starter plan. No card needed.'
                  : 'Welcome back. Sign in to your clinic.'}
              </p>
            )}
          </CardHeader>
          <CardContent>
            {sent && checking ? (
              <CheckEmailPanel sent={sent} onRestart={() => setSent(null)} />
            ) : signup ? (
              <TrialForm onStarted={setSent} />
            ) : (
              <SignInForm onSignedIn={signedIn} />
            )}
          </CardContent>
        </Card>
        {checking ? null : (
          <p className="text-center text-sm text-slate-600">
            {signup ? 'Already have an account? ' : 'New to Arogya CRM? '}
            <Link
              href={signup ? paths.login : `${paths.login}?mode=signup`}
              className="font-medium text-brand-700 underline"
            >
              {signup ? 'Sign in' : 'Start a free trial'}
            </Link>
          </p>
        )}
      </div>
    </main>
  )
}
