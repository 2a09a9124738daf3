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
import { Button } from '@/client/components/ui/button'
import { Card, CardContent, CardHeader } from '@/client/components/ui/card'
import { ageInYears } from '@/shared/age'
import { formatCalendarDate } from '@/shared/dates'
import { formatPhone } from '@/shared/phone'
import type { Patient } from '@/shared/schemas/patients'
import { GenderBadge } from './gender-badge'

function Line({ icon, children, label }: { icon: ReactNode; children: ReactNode; label: string }) {
  return (
    <div className="flex items-start gap-2 text-sm text-slate-700">
      <span className="mt-0.5 text-slate-500" aria-hidden="true">
        {icon}
      </span>
      <span className="sr-only">{label}: </span>
      <span className="min-w-0 break-words">{children}</span>
    </div>
  )
}

export function PatientCard({
  patient,
  onView,
  onEdit,
  onSchedule,
}: {
  patient: Patient
  onView: () => void
  /** Absent when the user's role may not change patients. */
  onEdit?: (() => void) | undefined
  onSchedule: () => void
}) {
  const age = ageInYears(patient.dateOfBirth)
  return (
    <Card className="flex flex-col" data-testid="patient-card">
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="text-lg font-semibold">{patient.name}</h2>
          <GenderBadge gender={patient.gender} />
          {age !== null ? <span className="text-sm text-slate-600">{age} years</span> : null}
        </div>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-3">
        <div className="grid gap-1.5 2xl:grid-cols-2">
          {patient.email ? (
            <Line icon={<Mail className="size-4" />} label="Email">
              {patient.email}
            </Line>
          ) : null}
          <Line icon={<Phone className="size-4" />} label="Phone">
            {formatPhone(patient.phone)}
          </Line>
          {patient.address ? (
            <Line icon={<MapPin className="size-4" />} label="Address">
              {patient.address}
            </Line>
          ) : null}
          {patient.dateOfBirth ? (
            <Line icon={<Calendar className="size-4" />} label="Date of birth">
              {formatCalendarDate(patient.dateOfBirth)}
            </Line>
          ) : null}
          {patient.insuranceProvider ? (
            <Line icon={<Shield className="size-4" />} label="Insurance provider">
              {patient.insuranceProvider}
            </Line>
          ) : null}
        </div>
        {patient.medicalHistory ? (
          <div className="rounded-md bg-blue-50 p-3 text-sm">
            <p className="flex items-center gap-1.5 font-medium text-blue-900">
              <HeartPulse className="size-4" aria-hidden="true" /> Medical History
            </p>
            <p className="mt-1 text-blue-900/90">{patient.medicalHistory}</p>
          </div>
        ) : null}
        {patient.allergies ? (
          <div className="rounded-md bg-red-50 p-3 text-sm">
            <p className="flex items-center gap-1.5 font-medium text-red-900">
              <AlertTriangle className="size-4" aria-hidden="true" /> Allergies
            </p>
            <p className="mt-1 text-red-900/90">{patient.allergies}</p>
          </div>
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
          <Button
            size="sm"
            variant="secondary"
            onClick={onSchedule}
            aria-label={`Schedule Appointment for ${patient.name}`}
          >
            <Calendar aria-hidden="true" /> Schedule Appointment
          </Button>
        </div>
      </CardContent>
    </Card>
  )
}
