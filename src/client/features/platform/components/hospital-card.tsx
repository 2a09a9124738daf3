import { Eye, Pencil } from 'lucide-react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { formatDate } from '@/shared/dates'
import { type HospitalCard as Hospital, hospitalTypeLabels } from '@/shared/schemas/platform'
import { EnterHospitalButton } from './enter-hospital-button'
import { hospitalRevenue } from './hospital-revenue'
import { StatusBadge } from './status-badge'

/** Spec section 2: name, email, status, users current/max, type, revenue and created date. */
export function HospitalCard({
  hospital,
  onView,
  onEdit,
}: {
  hospital: Hospital
  onView: () => void
  onEdit: () => void
}) {
  return (
    <Card>
      <CardContent className="space-y-3 p-4 sm:p-5">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 className="font-semibold">{hospital.name}</h2>
            <p className="text-sm text-slate-600">{hospital.email}</p>
          </div>
          <StatusBadge status={hospital.subscriptionStatus} />
        </div>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
          <div>
            <dt className="text-slate-600">Users</dt>
            <dd className="font-medium tabular-nums">
              {hospital.currentUsers}/{hospital.maxUsers}
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Type</dt>
            <dd className="font-medium">{hospitalTypeLabels[hospital.hospitalType]}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Revenue</dt>
            <dd className="font-medium whitespace-nowrap tabular-nums">
              {hospitalRevenue(hospital)}
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Created</dt>
            <dd className="font-medium">{formatDate(hospital.createdAt)}</dd>
          </div>
        </dl>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={onView} aria-label={`View ${hospital.name}`}>
            <Eye aria-hidden="true" /> View
          </Button>
          <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Edit ${hospital.name}`}>
            <Pencil aria-hidden="true" /> Edit
          </Button>
          <EnterHospitalButton hospital={hospital} />
        </div>
      </CardContent>
    </Card>
  )
}
