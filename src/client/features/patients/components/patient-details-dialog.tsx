import { PatientAppointments } from '@/client/components/appointments/patient-appointments'
import { Dialog } from '@/client/components/ui/dialog'
import { CallButton } from '@/client/features/calls/components/call-button'
import { ContactCalls } from '@/client/features/calls/components/contact-calls'
import { Spinner } from '@/client/components/ui/spinner'
import { ApiError } from '@/client/lib/api-client'
import { useMarkPatientReadOnOpen } from '@/client/components/messaging/api/mark-patient-read'
import { CommunicationHistory } from '@/client/components/messaging/components/communication-history'
import { MessageButton } from '@/client/components/messaging/components/message-actions'
import { useCan, useUser } from '@/client/lib/current-user'
import { formatCalendarDate, formatDate, formatTime } from '@/shared/dates'
import { formatPhone } from '@/shared/phone-format'
import { genderLabels } from '@/shared/patient-labels'
import type { Patient } from '@/shared/schemas/patients'
import { usePatient } from '../api/get-patient'
import { formatContact } from '../format-contact'
import { patientRecipient } from '../patient-recipient'
import { ageText } from './age-text'
import { DataRightsSection } from './data-rights-section'

/** The patient to show: its id, and the row already on screen (if any) to show at once. */
export interface Viewing {
  id: string
  shown?: Patient
}

const WIDE = new Set(['Address', 'Emergency Contact', 'Medical History', 'Allergies'])

function Details({ patient, timeZone }: { patient: Patient; timeZone: string | undefined }) {
  const at = (iso: string) => `${formatDate(iso, timeZone)}, ${formatTime(iso, timeZone)}`
  const dob = patient.dateOfBirth
  const rows: [string, string | null][] = [
    ['Patient Number', patient.patientNumber],
    ['Phone', patient.phone ? formatPhone(patient.phone) : null],
    ['Email', patient.email],
    [
      'Date of Birth',
      dob && patient.dateOfBirthEstimated
        ? 'Not known (estimated from age)'
        : dob
          ? formatCalendarDate(dob)
          : null,
    ],
    ['Age', ageText(patient)],
    ['Gender', patient.gender ? genderLabels[patient.gender] : null],
    ['Address', patient.address],
    ['Emergency Contact', patient.emergencyContact && formatContact(patient.emergencyContact)],
    ['Insurance Provider', patient.insuranceProvider],
    ['Insurance Number', patient.insuranceNumber],
    ['ABHA Number', patient.abhaNumber],
    ['Medical History', patient.medicalHistory],
    ['Allergies', patient.allergies],
    ['Added', at(patient.createdAt)],
    ['Last Updated', at(patient.updatedAt)],
  ]
  return (
    <dl className="grid min-w-0 gap-4 sm:grid-cols-2">
      {rows.map(([label, value]) => (
        <div key={label} className={WIDE.has(label) ? 'min-w-0 sm:col-span-2' : 'min-w-0'}>
          <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{label}</dt>
          <dd className="mt-0.5 text-sm whitespace-pre-line text-slate-900 [overflow-wrap:anywhere]">
            {value ?? 'Not provided'}
          </dd>
        </div>
      ))}
    </dl>
  )
}

/** 'Patient Details: {name}': every field, long text wrapped in full. */
export function PatientDetailsDialog({
  viewing,
  onClose,
}: {
  viewing: Viewing | null
  onClose: () => void
}) {
  const timeZone = useUser().data?.timeZone
  const canMessage = useCan('patients:write')
  const query = usePatient(viewing?.id ?? null, viewing?.shown)
  useMarkPatientReadOnOpen(query.isSuccess ? (viewing?.id ?? null) : null)
  if (!viewing) return null
  const patient = query.data
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={patient ? `Patient Details: ${patient.name}` : 'Patient Details'}
    >
      {patient ? (
        <div className="space-y-6">
          <Details patient={patient} timeZone={timeZone} />
          <PatientAppointments patient={patient} />
          <section className="min-w-0 space-y-3 rounded-lg border border-slate-200 p-4">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="text-base font-semibold">Communication History</h3>
              {canMessage && !patient.erasedAt ? (
                <MessageButton to={patientRecipient(patient)} buttonProps={{ size: 'sm' }} />
              ) : null}
            </div>
            <CommunicationHistory of={{ kind: 'patient', id: patient.id }} />
          </section>
          <section className="min-w-0 space-y-3 rounded-lg border border-slate-200 p-4">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="text-base font-semibold">Calls</h3>
              {patient.phone && !patient.erasedAt ? (
                <CallButton
                  size="sm"
                  contact={{
                    kind: 'patient',
                    id: patient.id,
                    name: patient.name,
                    phone: patient.phone,
                  }}
                />
              ) : null}
            </div>
            <ContactCalls of={{ kind: 'patient', id: patient.id }} />
          </section>
          <DataRightsSection patient={patient} />
        </div>
      ) : query.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {query.error instanceof ApiError && query.error.status === 404
            ? 'This patient was not found.'
            : 'Failed to load the patient. Please try again.'}
        </p>
      ) : (
        <div className="flex justify-center py-8">
          <Spinner label="Loading patient" className="size-6" />
        </div>
      )}
    </Dialog>
  )
}
