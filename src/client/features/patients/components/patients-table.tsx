import { Calendar, Pencil } from 'lucide-react'
import { Button } from '@/client/components/ui/button'
import { CallButton } from '@/client/features/calls/components/call-button'
import { useUser } from '@/client/lib/current-user'
import { formatDate, formatTime } from '@/shared/dates'
import { PhoneNumber } from '@/client/components/phone/phone-number'
import { genderLabels } from '@/shared/patient-labels'
import type { Patient } from '@/shared/schemas/patients'
import { ageText } from './age-text'

const cell = 'px-3 py-1.5 align-middle'
const actionsCell = 'px-2 py-0.5 align-middle'
const th = 'px-3 py-2 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase'

/** '34 years · Female', '—' when neither is known. */
function ageAndGender(p: Patient): string {
  const parts = [ageText(p), p.gender ? genderLabels[p.gender] : null].filter(Boolean)
  return parts.length > 0 ? parts.join(' · ') : '—'
}

/**
 * The compact list for the front desk's laptop: one line a patient (about 15 on a 1280x800
 * screen), the phone prominent. The name opens the details.
 */
export function PatientsTable({
  patients,
  onView,
  onEdit,
  onSchedule,
}: {
  patients: Patient[]
  onView: (p: Patient) => void
  /** Absent when the user's role may not change patients. */
  onEdit?: ((p: Patient) => void) | undefined
  onSchedule: (p: Patient) => void
}) {
  const timeZone = useUser().data?.timeZone
  return (
    // Columns drop out as the list gets narrower (a container query: the sidebar takes width
    // too), so the name always keeps room; nothing scrolls sideways.
    <div className="@container overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="w-full table-fixed border-collapse text-sm">
        <caption className="sr-only">Patients</caption>
        <thead className="border-b border-slate-200 bg-slate-50">
          <tr>
            <th scope="col" className={`${th} hidden w-32 @xl:table-cell`}>
              Patient No.
            </th>
            <th scope="col" className={th}>
              Name
            </th>
            <th scope="col" className={`${th} w-44`}>
              Phone
            </th>
            <th scope="col" className={`${th} hidden w-44 @3xl:table-cell`}>
              Age · Gender
            </th>
            <th scope="col" className={`${th} hidden w-32 @4xl:table-cell`}>
              Updated
            </th>
            <th scope="col" className={`${th} w-28`}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {patients.map((p) => (
            <tr key={p.id} data-testid="patient-row" className="hover:bg-slate-50">
              <td
                className={`${cell} hidden truncate font-mono text-xs text-slate-600 @xl:table-cell`}
              >
                {p.patientNumber}
              </td>
              <td className={`${cell} min-w-0`}>
                <button
                  type="button"
                  onClick={() => onView(p)}
                  title={p.name}
                  className="block max-w-full truncate rounded-sm text-left font-medium text-brand-800 hover:underline focus-visible:ring-2 focus-visible:ring-brand-600/40 focus-visible:outline-none"
                >
                  <span className="sr-only">View details of </span>
                  {p.name}
                </button>
              </td>
              <td className={`${cell} truncate font-semibold text-slate-900 tabular-nums`}>
                <PhoneNumber value={p.phone} />
              </td>
              <td className={`${cell} hidden truncate text-slate-700 @3xl:table-cell`}>
                {ageAndGender(p)}
              </td>
              <td
                className={`${cell} hidden truncate text-slate-700 @4xl:table-cell`}
                title={`Added ${formatDate(p.createdAt, timeZone)}, last updated ${formatDate(p.updatedAt, timeZone)} ${formatTime(p.updatedAt, timeZone)}`}
              >
                {formatDate(p.updatedAt, timeZone)}
              </td>
              <td className={actionsCell}>
                <div className="flex justify-end gap-0.5">
                  {onEdit ? (
                    <Button
                      size="icon"
                      variant="ghost"
                      className="size-7"
                      onClick={() => onEdit(p)}
                      aria-label={`Edit ${p.name}`}
                      title="Edit"
                    >
                      <Pencil aria-hidden="true" />
                    </Button>
                  ) : null}
                  {p.phone && !p.erasedAt ? (
                    <CallButton
                      icon
                      className="size-7"
                      contact={{ kind: 'patient', id: p.id, name: p.name, phone: p.phone }}
                    />
                  ) : null}
                  <Button
                    size="icon"
                    variant="ghost"
                    className="size-7"
                    onClick={() => onSchedule(p)}
                    aria-label={`Schedule Appointment for ${p.name}`}
                    title="Schedule Appointment"
                  >
                    <Calendar aria-hidden="true" />
                  </Button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
