import { Dialog } from '@/client/components/ui/dialog'
import { useUser } from '@/client/lib/current-user'
import { formatCalendarDate, formatDate, formatTime } from '@/shared/dates'
import { formatPhone } from '@/shared/phone'
import { genderLabels, type Patient } from '@/shared/schemas/patients'

export function PatientDetailsDialog({
  patient,
  onClose,
}: {
  patient: Patient | null
  onClose: () => void
}) {
  const timeZone = useUser().data?.timeZone
  if (!patient) return null
  const at = (iso: string) => `${formatDate(iso, timeZone)}, ${formatTime(iso, timeZone)}`
  const rows: [string, string | null][] = [
    ['Email', patient.email],
    ['Phone', formatPhone(patient.phone)],
    ['Date of Birth', patient.dateOfBirth ? formatCalendarDate(patient.dateOfBirth) : null],
    ['Gender', patient.gender ? genderLabels[patient.gender] : null],
    ['Address', patient.address],
    ['Emergency Contact', patient.emergencyContact],
    ['Insurance Provider', patient.insuranceProvider],
    ['Insurance Number', patient.insuranceNumber],
    ['ABHA Number', patient.abhaNumber],
    ['Medical History', patient.medicalHistory],
    ['Allergies', patient.allergies],
    ['Added', at(patient.createdAt)],
    ['Last Updated', at(patient.updatedAt)],
  ]
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Patient Details: ${patient.name}`}
    >
      <dl className="grid gap-4 sm:grid-cols-2">
        {rows.map(([label, value]) => (
          <div
            key={label}
            className={
              label === 'Medical History' || label === 'Allergies' || label === 'Address'
                ? 'sm:col-span-2'
                : ''
            }
          >
            <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
            <dd className="mt-0.5 text-sm break-words text-slate-900">{value ?? 'Not provided'}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  )
}
