import { Button } from '@/client/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { Skeleton } from '@/client/components/ui/skeleton'
import { useCan } from '@/client/lib/current-user'
import { useHospitalSettings } from '../api/hospital-settings'
import { BookingPageCard } from './booking-page-card'
import { GeneralForm } from './general-form'

/**
 * Settings → General (issue 26): the hospital's name, time zone, GST details, UPI id, invoice
 * prefix, working hours and reminders, and the booking page card. Every member reads them;
 * admins (hospital:manage) change them. A later issue adds the spec's other General fields.
 */
export function GeneralPanel() {
  const query = useHospitalSettings()
  const canEdit = useCan('hospital:manage')
  return (
    <section aria-labelledby="general-title" className="space-y-4">
      <h2 id="general-title" className="text-lg font-semibold">
        General
      </h2>
      <Card>
        <CardHeader>
          <CardTitle>Hospital</CardTitle>
        </CardHeader>
        <CardContent>
          {query.isPending ? (
            <div className="space-y-2" aria-label="Loading the hospital settings">
              <Skeleton className="h-10 w-full" />
              <Skeleton className="h-10 w-full" />
              <Skeleton className="h-40 w-full" />
            </div>
          ) : query.isError ? (
            <div role="alert" className="space-y-2 text-sm text-red-700">
              <p>Failed to load the hospital settings.</p>
              <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
                Try again
              </Button>
            </div>
          ) : (
            <GeneralForm key={query.dataUpdatedAt} saved={query.data} canEdit={canEdit} />
          )}
        </CardContent>
      </Card>
      <BookingPageCard canEdit={canEdit} />
    </section>
  )
}
