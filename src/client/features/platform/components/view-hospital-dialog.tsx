import type { ReactNode } from 'react'
import { Dialog } from '@/client/components/ui/dialog'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { formatCalendarDate, formatDate } from '@/shared/dates'
import { formatMoney } from '@/shared/money'
import { formatPhone } from '@/shared/phone-format'
import { plans } from '@/shared/plans'
import { hospitalTypeLabels } from '@/shared/schemas/platform'
import { useHospital } from '../api/hospitals'
import { EnterHospitalButton } from './enter-hospital-button'
import { StatusBadge } from './status-badge'

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-slate-600">{label}</dt>
      <dd className="font-medium">{children ?? '—'}</dd>
    </div>
  )
}

/** View: everything the platform knows about a hospital. */
export function ViewHospitalDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const query = useHospital(id)
  const h = query.data
  return (
    <Dialog
      open={id !== null}
      onOpenChange={(open) => !open && onClose()}
      title={h?.name ?? 'Hospital'}
    >
      {query.isError ? (
        <InlineLoadError
          message="Failed to load the hospital."
          onRetry={() => void query.refetch()}
        />
      ) : !h ? (
        <Skeleton className="h-48 w-full" />
      ) : (
        <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-2">
          <Row label="Status">
            <StatusBadge status={h.subscriptionStatus} />
          </Row>
          <Row label="Plan">{plans.find((p) => p.id === h.plan)?.name ?? h.plan}</Row>
          <Row label="Email">{h.email}</Row>
          <Row label="Phone">{h.phone ? formatPhone(h.phone) : null}</Row>
          <Row label="Type">{hospitalTypeLabels[h.hospitalType]}</Row>
          <Row label="Address">{h.address}</Row>
          <Row label="Users">
            {h.currentUsers}/{h.maxUsers}
          </Row>
          <Row label="Price per user">{formatMoney(h.pricePerUser, h.currency)}/month</Row>
          <Row label="Monthly revenue">{formatMoney(h.monthlyRevenue, h.currency)}</Row>
          <Row label="Trial ends">{h.trialEndsAt ? formatCalendarDate(h.trialEndsAt) : null}</Row>
          <Row label="Bed capacity">{h.bedCapacity}</Row>
          <Row label="First admin">{h.adminEmail}</Row>
          <Row label="Onboarding">
            {h.tasksCompleted} of {h.tasksTotal} tasks done
          </Row>
          <Row label="Created">{formatDate(h.createdAt)}</Row>
        </dl>
      )}
      {h ? (
        <div className="mt-4">
          <EnterHospitalButton hospital={h} />
        </div>
      ) : null}
    </Dialog>
  )
}
