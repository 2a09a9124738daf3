import { MailCheck } from 'lucide-react'
import { Link } from 'wouter'
import { Button } from '@/client/components/ui/button'
import { paths } from '@/client/paths'
import type { TrialSent } from './trial-form'

/** Shown instead of the trial form once it is sent: the account waits for the emailed link. */
export function CheckEmailPanel({ sent, onRestart }: { sent: TrialSent; onRestart: () => void }) {
  return (
    <div className="space-y-4">
      <div className="flex items-start gap-3">
        <MailCheck className="mt-0.5 size-6 shrink-0 text-brand-700" aria-hidden="true" />
        <p className="text-sm text-slate-800">{sent.message}</p>
      </div>
      <p className="text-sm break-words text-slate-700">
        We sent it to <span className="font-medium text-slate-900">{sent.email}</span>. Open the
        link in that email to activate your account and sign in.
      </p>
      <p className="text-xs text-slate-600">
        No email after a few minutes? Check your spam folder, or sign up again with the right
        address.
      </p>
      <Button asChild variant="outline" className="w-full">
        <Link href={paths.login}>Back to sign in</Link>
      </Button>
      <Button type="button" variant="link" className="w-full" onClick={onRestart}>
        Use a different email address
      </Button>
    </div>
  )
}
