import { ShieldAlert } from 'lucide-react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { serverPaths } from '@/client/paths'

/**
 * /admin for anyone but a hospital admin (spec: 'Admin Access Required', 'Login as Admin'):
 * Login as Admin signs this member out, then opens the sign-in page (issue 40 item 13).
 */
export function AdminAccessRequired() {
  return (
    <div className="min-w-0 space-y-6">
      <h1 className="text-2xl font-bold">Admin</h1>
      <Card>
        <CardContent className="flex flex-col items-center gap-3 p-6 text-center sm:p-10">
          <ShieldAlert className="size-10 text-brand-700" aria-hidden="true" />
          <p className="text-lg font-medium">Admin Access Required</p>
          <p className="max-w-md text-sm text-slate-600">
            Only your hospital&apos;s admins manage the team. Ask an admin, or sign in with an admin
            account.
          </p>
          <Button asChild className="mt-2">
            <a href={`${serverPaths.logout}?next=login`}>Login as Admin</a>
          </Button>
        </CardContent>
      </Card>
    </div>
  )
}
