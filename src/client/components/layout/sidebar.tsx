import { Home, X } from 'lucide-react'
import { Link, useLocation } from 'wouter'
import { Button } from '@/client/components/ui/button'
import { cn } from '@/client/lib/cn'
import { paths } from '@/client/paths'
import { type NavItem, navItems, superAdminItem } from './nav-items'

function isCurrent(href: string, location: string): boolean {
  if (href === paths.home) return location === paths.home || location === paths.dashboard
  return location === href || location.startsWith(`${href}/`)
}

export function Sidebar({
  open,
  isSuperAdmin,
  onClose,
  onNavigate,
}: {
  open: boolean
  isSuperAdmin: boolean
  onClose: () => void
  onNavigate: () => void
}) {
  const [location] = useLocation()
  const items: readonly NavItem[] = isSuperAdmin ? [...navItems, superAdminItem] : navItems
  return (
    <aside
      id="app-sidebar"
      data-tour="sidebar"
      className={cn(
        'fixed inset-y-0 left-0 z-30 flex w-64 flex-col border-r border-slate-200 bg-white transition-transform md:sticky md:top-0 md:h-screen',
        open ? 'translate-x-0' : '-translate-x-full md:hidden',
      )}
    >
      <div className="flex h-16 items-center justify-between border-b border-slate-200 px-4">
        <Link href={paths.home} className="text-lg font-bold text-brand-800" onClick={onNavigate}>
          Arogya CRM
        </Link>
        <Button
          variant="ghost"
          size="icon"
          className="md:hidden"
          onClick={onClose}
          aria-label="Close sidebar"
        >
          <X aria-hidden="true" />
        </Button>
      </div>
      <nav aria-label="Main navigation" className="flex-1 overflow-y-auto p-3">
        <ul className="space-y-1">
          {items.map((item) => {
            const current = isCurrent(item.href, location)
            return (
              <li key={item.href}>
                <Link
                  href={item.href}
                  onClick={onNavigate}
                  aria-current={current ? 'page' : undefined}
                  data-tour={
                    item.href === paths.patients
                      ? 'patients-link'
                      : item.href === paths.appointments
                        ? 'appointments-link'
                        : undefined
                  }
                  className={cn(
                    'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium',
                    current ? 'bg-brand-700 text-white' : 'text-slate-700 hover:bg-slate-100',
                  )}
                >
                  <item.icon className="size-4" aria-hidden="true" />
                  {item.label}
                </Link>
              </li>
            )
          })}
        </ul>
      </nav>
      <div className="border-t border-slate-200 p-3">
        <Button variant="outline" className="w-full" asChild>
          <Link href={paths.home} onClick={onNavigate}>
            <Home aria-hidden="true" />
            Go to Main Page
          </Link>
        </Button>
      </div>
    </aside>
  )
}
