import { useQueryClient } from '@tanstack/react-query'
import { Link, useLocation, useSearch } from 'wouter'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { paths } from '@/client/paths'
import { getUserQueryOptions } from '@/client/lib/current-user'
import { SignInForm } from './components/sign-in-form'
import { TrialForm } from './components/trial-form'

/** /login: sign in, or (mode=signup) start a free trial. */
export function LoginPage() {
  const search = useSearch()
  const signup = new URLSearchParams(search).get('mode') === 'signup'
  const queryClient = useQueryClient()
  const [, navigate] = useLocation()

  async function signedIn() {
    await queryClient.resetQueries(getUserQueryOptions())
    navigate(paths.home, { replace: true })
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-brand-50 to-white px-4 py-10">
      <div className="w-full max-w-md space-y-6">
        <Link href={paths.home} className="block text-center text-2xl font-bold text-brand-800">
          Arogya CRM
        </Link>
        <Card>
          <CardHeader>
            <CardTitle>{signup ? 'Start your free trial' : 'Sign in'}</CardTitle>
            <p className="text-sm text-slate-600">
              {signup
                ? '14 days free on the Starter plan. No card needed.'
                : 'Welcome back. Sign in to your clinic.'}
            </p>
          </CardHeader>
          <CardContent>
            {signup ? <TrialForm onSignedIn={signedIn} /> : <SignInForm onSignedIn={signedIn} />}
          </CardContent>
        </Card>
        <p className="text-center text-sm text-slate-600">
          {signup ? 'Already have an account? ' : 'New to Arogya CRM? '}
          <Link
            href={signup ? paths.login : `${paths.login}?mode=signup`}
            className="font-medium text-brand-700 underline"
          >
            {signup ? 'Sign in' : 'Start a free trial'}
          </Link>
        </p>
      </div>
    </main>
  )
}
