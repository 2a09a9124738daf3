import type { ReactNode, Ref } from 'react'
import { Link } from 'wouter'
import { Card, CardContent, CardHeader } from '@/client/components/ui/card'
import { paths } from '@/client/paths'

/** The signed-out card of the password reset pages (as the sign-in page). */
export function PasswordResetLayout({
  title,
  intro,
  headingRef,
  children,
}: {
  title: string
  intro?: string | undefined
  headingRef?: Ref<HTMLHeadingElement>
  children: ReactNode
}) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-brand-50 to-white px-4 py-10">
      <div className="w-full max-w-md space-y-6">
        <Link href={paths.home} className="block text-center text-2xl font-bold text-brand-800">
          Arogya CRM
        </Link>
        <Card>
          <CardHeader>
            <h1
              ref={headingRef}
              tabIndex={-1}
              className="text-lg leading-tight font-semibold outline-none"
            >
              {title}
            </h1>
            {intro ? <p className="text-sm text-slate-600">{intro}</p> : null}
          </CardHeader>
          <CardContent>{children}</CardContent>
        </Card>
        <p className="text-center text-sm text-slate-600">
          <Link href={paths.login} className="font-medium text-brand-700 underline">
            Back to sign in
          </Link>
        </p>
      </div>
    </main>
  )
}
