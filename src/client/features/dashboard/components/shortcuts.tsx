import { Calendar, CreditCard, Megaphone, Settings, Target, Users } from 'lucide-react'
import { Link } from 'wouter'
import { Card, CardContent } from '@/client/components/ui/card'
import { paths } from '@/client/paths'

/** Spec: shortcuts to /leads, /appointments, /patients, /billing, /campaigns, /settings. */
const shortcuts = [
  { href: paths.leads, label: 'Leads', text: 'Work new enquiries and follow-ups', icon: Target },
  { href: paths.appointments, label: 'Appointments', text: 'See and book visits', icon: Calendar },
  {
    href: paths.patients,
    label: 'Patients',
    text: 'Search and review patient records',
    icon: Users,
  },
  { href: paths.billing, label: 'Billing', text: 'Invoices and payments', icon: CreditCard },
  { href: paths.campaigns, label: 'Campaigns', text: 'Marketing campaigns', icon: Megaphone },
  {
    href: paths.settings,
    label: 'Settings',
    text: 'Hospital and account settings',
    icon: Settings,
  },
] as const

export function Shortcuts() {
  return (
    <nav aria-label="Shortcuts">
      <ul className="grid grid-cols-2 gap-3 md:grid-cols-3 2xl:grid-cols-6">
        {shortcuts.map((s) => (
          <li key={s.href} className="min-w-0">
            <Link href={s.href} className="block h-full rounded-lg focus-visible:outline-2">
              <Card className="h-full transition-shadow hover:shadow-md">
                <CardContent className="flex flex-col gap-2 p-4">
                  <s.icon className="size-6 shrink-0 text-brand-700" aria-hidden="true" />
                  <span className="text-sm font-semibold sm:text-base">{s.label}</span>
                  <span className="text-xs text-slate-600">{s.text}</span>
                </CardContent>
              </Card>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
