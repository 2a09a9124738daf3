import { UserPlus, Users } from 'lucide-react'
import { Link } from 'wouter'
import { Card, CardContent } from '@/client/components/ui/card'
import { displayName } from '@/client/lib/display-name'
import { paths } from '@/client/paths'
import type { CurrentUser } from '@/shared/schemas/auth'

/** Signed-in home. The lead dashboard arrives in a later release. */
export function HomePage({ user }: { user: CurrentUser }) {
  const name = displayName(user)
  const shortcuts = [
    {
      href: paths.patients,
      label: 'Patients',
      text: 'Search and review patient records',
      icon: Users,
    },
    {
      href: paths.manualPatient,
      label: 'Manual Entry',
      text: 'Add a walk-in or phoned-in patient',
      icon: UserPlus,
    },
  ]
  return (
    <div className="min-w-0 space-y-6">
      <div className="min-w-0 [overflow-wrap:anywhere]">
        <h1 className="text-2xl font-bold">Welcome back, {name}!</h1>
        <p className="text-slate-600">
          {user.hospitalName ?? 'Arogya CRM platform administration'}
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        {shortcuts.map((s) => (
          <Link key={s.href} href={s.href} className="block rounded-lg focus-visible:outline-2">
            <Card className="h-full transition-shadow hover:shadow-md">
              <CardContent className="flex items-center gap-4 p-5">
                <s.icon className="size-8 shrink-0 text-brand-700" aria-hidden="true" />
                <div className="min-w-0">
                  <p className="font-semibold">{s.label}</p>
                  <p className="text-sm text-slate-600">{s.text}</p>
                </div>
              </CardContent>
            </Card>
          </Link>
        ))}
      </div>
    </div>
  )
}
