import {
  Calendar,
  CreditCard,
  DatabaseBackup,
  HelpCircle,
  LayoutDashboard,
  LifeBuoy,
  type LucideIcon,
  Megaphone,
  MonitorDot,
  Settings,
  ShieldCheck,
  Target,
  UserPlus,
  Users,
} from 'lucide-react'
import { paths } from '@/client/paths'

export interface NavItem {
  label: string
  href: string
  icon: LucideIcon
}

/** Sidebar entries in the spec's order. */
export const navItems: readonly NavItem[] = [
  { label: 'Dashboard', href: paths.home, icon: LayoutDashboard },
  { label: 'Appointments', href: paths.appointments, icon: Calendar },
  { label: 'Patients', href: paths.patients, icon: Users },
  { label: 'Manual Entry', href: paths.manualPatient, icon: UserPlus },
  { label: 'Billing', href: paths.billing, icon: CreditCard },
  { label: 'Campaigns', href: paths.campaigns, icon: Megaphone },
  { label: 'Lead Generation', href: paths.leadGeneration, icon: Target },
  { label: 'Live Monitoring', href: paths.liveMonitoring, icon: MonitorDot },
  { label: 'FAQs', href: paths.faqs, icon: HelpCircle },
  { label: 'Support', href: paths.support, icon: LifeBuoy },
  { label: 'Backup', href: paths.backup, icon: DatabaseBackup },
  { label: 'Admin', href: paths.admin, icon: ShieldCheck },
  { label: 'Settings', href: paths.settings, icon: Settings },
]

export const superAdminItem: NavItem = {
  label: 'Super Admin',
  href: paths.superAdmin,
  icon: ShieldCheck,
}

/** Width at which the sidebar starts open (spec section 9). */
export const SIDEBAR_OPEN_MIN_WIDTH = 768
