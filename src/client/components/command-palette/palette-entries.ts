import { Calendar, type LucideIcon, Receipt, UserPlus, UserRoundPlus } from 'lucide-react'
import { navItems, superAdminItem } from '@/client/components/layout/nav-items'
import { paths } from '@/client/paths'
import { staffRoutes } from '@/client/staff-routes'
import { can, type Permission } from '@/shared/permissions'
import type { CurrentUser } from '@/shared/schemas/auth'

export interface PaletteEntry {
  id: string
  label: string
  href: string
  icon?: LucideIcon | undefined
  /** Other words it is found by. */
  keywords: string
}

/** Screens whose tab title is not the name to look for. */
const screenLabels: Partial<Record<string, string>> = {
  [paths.dashboard]: 'Lead Management Dashboard',
  [paths.home]: 'Dashboard (home)',
}

/** What a screen needs besides being a member (every staff role reads them all today). */
const screenPermission: Partial<Record<string, Permission>> = {
  [paths.patients]: 'patients:read',
  [paths.manualPatient]: 'patients:write',
  [paths.leads]: 'leads:read',
  [paths.dashboard]: 'leads:read',
  [paths.appointments]: 'appointments:read',
  [paths.billing]: 'billing:read',
  [paths.sandboxOutbox]: 'hospital:manage',
}

/** Pages reached from a link (an invitation, a reset), never a screen to open by name. */
const linkOnly: ReadonlySet<string> = new Set([paths.invite, '/forgot-password', '/reset-password'])

function allowed(user: CurrentUser, permission: Permission | undefined): boolean {
  return permission === undefined || can(user.role, permission)
}

/** Every screen of the route table this user may open (the same rules as staff-app.tsx). */
export function screensFor(user: CurrentUser): PaletteEntry[] {
  const member = user.hospitalId !== null
  const icons = new Map([...navItems, superAdminItem].map((n) => [n.href, n.icon]))
  return staffRoutes
    .filter((r) => {
      if (linkOnly.has(r.path)) return false
      if (r.access === 'hospital') return member && allowed(user, screenPermission[r.path])
      if (r.access === 'platform') return user.isSuperAdmin
      return true
    })
    .map((r) => ({
      id: `screen:${r.path}`,
      label: screenLabels[r.path] ?? r.title,
      href: r.path,
      icon: icons.get(r.path),
      keywords: `${r.title} ${r.path.replace(/[/-]/g, ' ')}`,
    }))
}

const actions: readonly (PaletteEntry & { permission: Permission })[] = [
  {
    id: 'new:patient',
    label: 'New Patient',
    href: paths.manualPatient,
    icon: UserPlus,
    keywords: 'add register patient manual entry',
    permission: 'patients:write',
  },
  {
    id: 'new:lead',
    label: 'New Lead',
    href: `${paths.leads}?new=1`,
    icon: UserRoundPlus,
    keywords: 'add enquiry lead',
    permission: 'leads:write',
  },
  {
    id: 'new:appointment',
    label: 'New Appointment',
    href: `${paths.appointments}?new=1`,
    icon: Calendar,
    keywords: 'book schedule appointment visit',
    permission: 'appointments:write',
  },
  {
    id: 'new:invoice',
    label: 'New Invoice',
    href: `${paths.billing}?new=1`,
    icon: Receipt,
    keywords: 'bill invoice payment',
    permission: 'billing:write',
  },
]

/** The "start something" commands this user's role may run (only inside a hospital). */
export function actionsFor(user: CurrentUser): PaletteEntry[] {
  if (user.hospitalId === null) return []
  return actions
    .filter((a) => can(user.role, a.permission))
    .map((a) => ({ id: a.id, label: a.label, href: a.href, icon: a.icon, keywords: a.keywords }))
}

/** Whether an entry matches what was typed: every word somewhere in its label or keywords. */
export function matches(entry: PaletteEntry, typed: string): boolean {
  const words = typed.toLowerCase().split(/\s+/).filter(Boolean)
  const text = `${entry.label} ${entry.keywords}`.toLowerCase()
  return words.every((w) => text.includes(w))
}
