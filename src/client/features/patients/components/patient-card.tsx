import {
  AlertTriangle,
  Calendar,
  Eye,
  HeartPulse,
  Mail,
  MapPin,
  Pencil,
  Phone,
  Shield,
} from 'lucide-react'
import type { ReactNode } from 'react'
import { ScheduleAppointmentButton } from '@/client/components/appointments/schedule-appointment-button'
import { Button } from '@/client/components/ui/button'
import { CallButton } from '@/client/features/calls/components/call-button'
import { MessageButton } from '@/client/components/messaging/components/message-actions'
import { useCan } from '@/client/lib/current-user'
import { patientRecipient } from '../patient-recipient'
import { Card, CardContent, CardHeader } from '@/client/components/ui/card'
import { cn } from '@/client/lib/cn'
import { formatCalendarDate } from '@/shared/dates'
import { PhoneNumber } from '@/client/components/phone/phone-number'
import type { Patient } from '@/shared/schemas/patients'
import { ageText } from './age-text'
import { GenderBadge } from './gender-badge'

/** One detail line; long text is cut to `lines` lines, the full text in its tooltip. */
function Line({
  icon,
  children,
  label,
  full,
  lines = 1,
}: {
  icon: ReactNode
  children: ReactNode
  label: string
  full?: string
  lines?: 1 | 2
}) {
  return (
    <div className="flex min-w-0 items-start gap-2 text-sm text-slate-700">
      <span className="mt-0.5 text-slate-500" aria-hidden="true">
        {icon}
      </span>
      <span className="sr-only">{label}: </span>
      <span
        className={cn('min-w-0 flex-1', lines === 1 ? 'truncate' : 'line-clamp-2')}
        title={full}
      >
        {children}
      </span>
    </div>
  )
}

/** A panel of long text (a 5,000-character history): a few lines, the rest in the tooltip. */
function Panel({
  icon,
  title,
  text,
  tone,
}: {
  icon: ReactNode
  title: string
  text: string
  tone: 'blue' | 'red'
}) {
  const colors = tone === 'blue' ? 'bg-blue-50 text-blue-900' : 'bg-red-50 text-red-900'
  return (
    <div className={cn('min-w-0 rounded-md p-3 text-sm', colors)}>
      <p className="flex items-center gap-1.5 font-medium">
        {icon} {title}
      </p>
      <p className="mt-1 line-clamp-3 whitespace-pre-line opacity-90" title={text}>
        {text}
      </p>
    </div>
  )
}

export function PatientCard({
  patient,
  onView,
  onEdit,
}: {
  patient: Patient
  onView: () => void
  /** Absent when the user's role may not change patients. */
  onEdit?: (() => void) | undefined
  /** Unused: the card's Schedule Appointment opens the booking dialog itself. */
  onSchedule?: () => void
}) {
  const age = ageText(patient)
  const canMessage = useCan('patients:write')
  return (
    <Card className="flex flex-col" data-testid="patient-card">
      <CardHeader>
        <h2 className="line-clamp-2 text-lg font-semibold" title={patient.name}>
          {patient.name}
        </h2>
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span className="font-mono text-xs text-slate-600">{patient.patientNumber}</span>
          <GenderBadge gender={patient.gender} />
          {age !== null ? <span className="text-sm text-slate-600">{age}</span> : null}
        </div>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-3">
        <div className="grid gap-1.5 2xl:grid-cols-2">
          {patient.email ? (
            <Line icon={<Mail className="size-4" />} label="Email" full={patient.email}>
              {patient.email}
            </Line>
          ) : null}
          <Line icon={<Phone className="size-4" />} label="Phone">
            <span className="font-medium whitespace-nowrap text-slate-900 tabular-nums">
              <PhoneNumber value={patient.phone} />
            </span>
          </Line>
          {patient.address ? (
            <Line
              icon={<MapPin className="size-4" />}
              label="Address"
              full={patient.address}
              lines={2}
            >
              {patient.address}
            </Line>
          ) : null}
          {patient.dateOfBirth && !patient.dateOfBirthEstimated ? (
            <Line icon={<Calendar className="size-4" />} label="Date of birth">
              {formatCalendarDate(patient.dateOfBirth)}
            </Line>
          ) : null}
          {patient.insuranceProvider ? (
            <Line
              icon={<Shield className="size-4" />}
              label="Insurance provider"
              full={patient.insuranceProvider}
            >
              {patient.insuranceProvider}
            </Line>
          ) : null}
        </div>
        {patient.medicalHistory ? (
          <Panel
            icon={<HeartPulse className="size-4" aria-hidden="true" />}
            title="Medical History"
            text={patient.medicalHistory}
            tone="blue"
          />
        ) : null}
        {patient.allergies ? (
          <Panel
            icon={<AlertTriangle className="size-4" aria-hidden="true" />}
            title="Allergies"
            text={patient.allergies}
            tone="red"
          />
        ) : null}
        <div className="mt-auto flex flex-wrap gap-2 pt-2">
          <Button
            size="sm"
            variant="outline"
            onClick={onView}
            aria-label={`View Details of ${patient.name}`}
          >
            <Eye aria-hidden="true" /> View Details
          </Button>
          {onEdit ? (
            <Button
              size="sm"
              variant="outline"
              onClick={onEdit}
              aria-label={`Edit ${patient.name}`}
            >
              <Pencil aria-hidden="true" /> Edit
            </Button>
          ) : null}
          {patient.phone && !patient.erasedAt ? (
            <CallButton
              size="sm"
              aria-label={`Call ${patient.name}`}
              contact={{
                kind: 'patient',
                id: patient.id,
                name: patient.name,
                phone: patient.phone,
              }}
            />
          ) : null}
          {canMessage ? (
            <MessageButton to={patientRecipient(patient)} buttonProps={{ size: 'sm' }} />
          ) : null}
          <ScheduleAppointmentButton
            size="sm"
            variant="secondary"
            label="Schedule Appointment"
            aria-label={`Schedule Appointment for ${patient.name}`}
            patient={{ id: patient.id, name: patient.name, phone: patient.phone }}
          />
        </div>
      </CardContent>
    </Card>
  )
}
