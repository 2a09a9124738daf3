import { Building2, ShieldCheck } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { paths } from '@/client/paths'

function Panel({
  title,
  icon,
  lead,
  text,
  action,
}: {
  title: string
  icon: ReactNode
  lead: string
  text: string
  action: ReactNode
}) {
  return (
    <div className="min-w-0 space-y-6">
      <h1 className="text-2xl font-bold [overflow-wrap:anywhere]">{title}</h1>
      <Card>
        <CardContent className="flex flex-col items-center gap-3 p-6 text-center sm:p-10">
          {icon}
          <p className="text-lg font-medium">{lead}</p>
          <p className="max-w-md text-sm text-slate-600">{text}</p>
          {action}
        </CardContent>
      </Card>
    </div>
  )
}

/**
 * Shown instead of a hospital screen (dashboard, patients, ...) to a platform account, which
 * belongs to no hospital: it explains rather than fetching data it cannot have.
 */
export function HospitalStaffOnly({ title }: { title: string }) {
  return (
    <Panel
      title={title}
      icon={<Building2 className="size-10 text-brand-700" aria-hidden="true" />}
      lead="These screens are for hospital staff."
      text="Platform accounts manage hospitals from the Super Admin Dashboard."
      action={
        <Button asChild className="mt-2">
          <Link href={paths.superAdmin}>Go to the Super Admin Dashboard</Link>
        </Button>
      }
    />
  )
}

/** Shown instead of the Super Admin Dashboard to hospital staff. */
export function PlatformAccountsOnly({ title }: { title: string }) {
  return (
    <Panel
      title={title}
      icon={<ShieldCheck className="size-10 text-brand-700" aria-hidden="true" />}
      lead="This screen is for platform accounts."
      text="It manages every hospital on Arogya CRM. Your hospital's screens are in the menu."
      action={
        <Button asChild className="mt-2">
          <Link href={paths.home}>Go to the Dashboard</Link>
        </Button>
      }
    />
  )
}
