import { Plus } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/client/components/ui/tabs'
import type { CurrentUser } from '@/shared/schemas/auth'
import { ActivitiesTab } from './components/activities-tab'
import { AddHospitalDialog } from './components/add-hospital-dialog'
import { HospitalsTab } from './components/hospitals-tab'
import { LeadGenerationTab } from './components/lead-generation-tab'
import { OnboardingTab } from './components/onboarding-tab'
import { StatCards } from './components/stat-cards'
import { OpenTicketsCard, SupportTicketsTab } from './components/support-tickets-tab'
import { UsersTab } from './components/users-tab'

/**
 * /super-admin (spec section 2, issue 27): the platform's figures, and its hospitals, users,
 * onboarding tasks and audit trail. The server answers these calls to super admins only.
 */
export function SuperAdminPage({ user }: { user: CurrentUser }) {
  const [adding, setAdding] = useState(false)
  return (
    <div className="min-w-0 space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Super Admin Dashboard</h1>
        <Button onClick={() => setAdding(true)}>
          <Plus aria-hidden="true" /> Add Hospital
        </Button>
      </div>
      <StatCards />
      <OpenTicketsCard />
      <Tabs defaultValue="hospitals">
        <TabsList aria-label="Platform">
          <TabsTrigger value="hospitals">Hospitals</TabsTrigger>
          <TabsTrigger value="users">Users</TabsTrigger>
          <TabsTrigger value="onboarding">Onboarding</TabsTrigger>
          <TabsTrigger value="activities">Activities</TabsTrigger>
          <TabsTrigger value="lead-generation">Lead Generation</TabsTrigger>
          <TabsTrigger value="support">Support</TabsTrigger>
        </TabsList>
        <TabsContent value="hospitals">
          <HospitalsTab />
        </TabsContent>
        <TabsContent value="users">
          <UsersTab selfEmail={user.email} />
        </TabsContent>
        <TabsContent value="onboarding">
          <OnboardingTab />
        </TabsContent>
        <TabsContent value="activities">
          <ActivitiesTab />
        </TabsContent>
        <TabsContent value="lead-generation">
          <LeadGenerationTab />
        </TabsContent>
        <TabsContent value="support">
          <SupportTicketsTab />
        </TabsContent>
      </Tabs>
      <AddHospitalDialog open={adding} onClose={() => setAdding(false)} />
    </div>
  )
}
