import { Link } from 'wouter'
import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { Skeleton } from '@/client/components/ui/skeleton'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/client/components/ui/tabs'
import { paths } from '@/client/paths'
import { formatAgo } from '@/shared/dates'
import { PhoneNumber } from '@/client/components/phone/phone-number'
import { leadSourceLabels, leadStatusLabels } from '@/shared/lead-labels'
import { useRecentLeads } from '../api/get-recent-leads'
import { UpcomingAppointments } from './upcoming-appointments'

function RecentLeads() {
  const leads = useRecentLeads()
  if (leads.isPending) {
    return (
      <div className="space-y-3" role="status" aria-busy="true" aria-label="Loading recent leads">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-12 w-full" />
        ))}
      </div>
    )
  }
  if (leads.isError) {
    return (
      <div role="alert" className="flex flex-col items-center gap-2 py-6 text-center">
        <p className="font-medium">Failed to fetch leads</p>
        <Button variant="outline" size="sm" onClick={() => void leads.refetch()}>
          Try again
        </Button>
      </div>
    )
  }
  if (leads.data.length === 0) {
    return (
      <p className="py-6 text-center text-sm text-slate-600">
        No recent leads. Start by importing leads or creating new ones.
      </p>
    )
  }
  return (
    <ul className="divide-y divide-slate-100">
      {leads.data.map((lead) => (
        <li
          key={lead.id}
          data-testid="recent-lead"
          className="flex min-w-0 items-center gap-3 py-2.5"
        >
          <div className="min-w-0 flex-1">
            <Link
              href={`${paths.leads}?open=${lead.id}`}
              className="block truncate font-medium text-brand-800 hover:underline"
              title={lead.name}
            >
              {lead.name}
            </Link>
            <p className="truncate text-xs text-slate-600">
              <PhoneNumber value={lead.phone} /> · {leadSourceLabels[lead.source]} ·{' '}
              {formatAgo(lead.createdAt)}
            </p>
          </div>
          <Badge variant="secondary" className="shrink-0">
            {leadStatusLabels[lead.status]}
          </Badge>
        </li>
      ))}
    </ul>
  )
}

/** Spec: tabs 'Recent Leads' (default) and 'Upcoming Appointments', 5 items each. */
export function RecentTabs() {
  return (
    <Card>
      <CardContent className="p-4 sm:p-5">
        <Tabs defaultValue="leads">
          <TabsList aria-label="Recent activity">
            <TabsTrigger value="leads">Recent Leads</TabsTrigger>
            <TabsTrigger value="appointments">Upcoming Appointments</TabsTrigger>
          </TabsList>
          <TabsContent value="leads">
            <RecentLeads />
          </TabsContent>
          <TabsContent value="appointments">
            <UpcomingAppointments />
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  )
}
