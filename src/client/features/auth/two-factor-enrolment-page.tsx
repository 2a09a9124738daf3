import { LogOut, ShieldCheck } from 'lucide-react'
import { useState } from 'react'
import { Card, CardContent } from '@/client/components/ui/card'
import { useDocumentTitle } from '@/client/lib/use-document-title'
import { serverPaths } from '@/client/paths'
import type { CurrentUser } from '@/shared/schemas/auth'
import type { TwoFactorSetup } from '@/client/components/two-factor/api/enrol-two-factor'
import { TwoFactorPasswordStep } from '@/client/components/two-factor/two-factor-password-step'
import { TwoFactorSetupStep } from '@/client/components/two-factor/two-factor-setup-step'

/**
 * The only screen a platform account without two-factor sees, and a member of a hospital that
 * requires it (the server refuses them everything else): password, then authenticator app,
 * backup codes and a first code.
 */
export function TwoFactorEnrolmentPage({ user }: { user: CurrentUser }) {
  useDocumentTitle('Set up two-factor authentication')
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null)

  return (
    <div className="min-h-screen bg-gradient-to-br from-brand-50 to-white px-4 py-6 sm:py-10">
      <header className="mx-auto flex w-full max-w-xl items-center justify-between gap-3">
        <p className="text-xl font-bold text-brand-800">Arogya CRM</p>
        <a
          href={serverPaths.logout}
          className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-sm font-medium text-brand-700 underline hover:bg-brand-50"
        >
          <LogOut className="size-4" aria-hidden="true" />
          Sign out
        </a>
      </header>
      <main className="mx-auto mt-6 w-full max-w-xl">
        <Card>
          <CardContent className="space-y-6 pt-5">
            <div className="space-y-2">
              <div className="flex items-start gap-3">
                <ShieldCheck className="mt-0.5 size-6 shrink-0 text-brand-700" aria-hidden="true" />
                <h1 className="text-xl leading-tight font-semibold">
                  Set up two-factor authentication
                </h1>
              </div>
              <p className="text-sm text-slate-700">
                {user.isSuperAdmin
                  ? 'Platform accounts must use two-factor authentication.'
                  : `${user.hospitalName ?? 'Your hospital'} requires two-factor authentication of every member.`}{' '}
                Besides your password, you will enter a code from an authenticator app on your phone
                (such as Google Authenticator, Microsoft Authenticator or Authy) each time you sign
                in.
              </p>
              <p className="text-sm break-words text-slate-600">
                Signed in as <span className="font-medium text-slate-800">{user.email}</span>
              </p>
            </div>
            {setup ? (
              <TwoFactorSetupStep setup={setup} />
            ) : (
              <TwoFactorPasswordStep onReady={setSetup} />
            )}
          </CardContent>
        </Card>
      </main>
    </div>
  )
}
