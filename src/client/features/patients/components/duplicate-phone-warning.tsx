import { Users } from 'lucide-react'
import { type MouseEvent, useEffect } from 'react'
import { type Control, useWatch } from 'react-hook-form'
import { useDebouncedValue } from '@/client/lib/use-debounced-value'
import { paths } from '@/client/paths'
import { normalizeMobilePhone } from '@/shared/phone'
import { plural } from '@/shared/plural'
import { usePhoneMatches } from '../api/get-phone-matches'
import type { PatientFormValues } from '../patient-form'

/** Opens a patient's details in place: the form behind keeps what was typed. */
export type OpenPatient = (id: string) => void

/**
 * Under the phone field: once it holds a valid number, the hospital's other patients with that
 * number, each a link to their record. Families share phones, so saving stays allowed.
 */
export function DuplicatePhoneWarning({
  control,
  excludeId,
  onOpenPatient,
  onShown,
}: {
  control: Control<PatientFormValues>
  /** The patient being edited, who is not their own duplicate. */
  excludeId?: string
  onOpenPatient: OpenPatient
  /** Told which number the warning is showing (null: none), so a submit knows it was seen. */
  onShown?: (phone: string | null) => void
}) {
  const typed = useWatch({ control, name: 'phone' })
  const phone = normalizeMobilePhone(useDebouncedValue(typed, 350))
  const matches = usePhoneMatches(phone, excludeId).data
  const found = phone !== null && matches && matches.count > 0 ? matches : null
  const shown = found ? phone : null
  useEffect(() => onShown?.(shown), [onShown, shown])

  function open(event: MouseEvent<HTMLAnchorElement>, id: string) {
    // A plain click opens the record over the form; Ctrl/Cmd-click opens it in a new tab.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return
    event.preventDefault()
    onOpenPatient(id)
  }

  return (
    <div role="status" aria-live="polite">
      {found ? (
        <div className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          <p className="flex items-center gap-2 font-medium">
            <Users className="size-4 shrink-0" aria-hidden="true" />
            {`This number belongs to ${plural(found.count, 'patient')}`}
          </p>
          <ul className="mt-2 space-y-1">
            {found.patients.map((p) => (
              <li key={p.id} className="min-w-0">
                <a
                  href={`${paths.patients}?open=${encodeURIComponent(p.id)}`}
                  onClick={(e) => open(e, p.id)}
                  className="font-medium text-brand-800 underline underline-offset-2 [overflow-wrap:anywhere] hover:text-brand-700"
                >
                  {p.name}
                </a>{' '}
                <span className="font-mono text-xs whitespace-nowrap text-amber-900">
                  {p.patientNumber}
                </span>
              </li>
            ))}
          </ul>
          {found.count > found.patients.length ? (
            <p className="mt-1 text-amber-900">
              and {found.count - found.patients.length} more (search the number on Patients)
            </p>
          ) : null}
          <p className="mt-2 text-amber-900">
            Check this is not the same person. Families often share a phone, so you can still save.
          </p>
        </div>
      ) : null}
    </div>
  )
}
