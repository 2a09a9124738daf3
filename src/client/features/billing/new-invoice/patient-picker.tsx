import { UserRound } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { SearchBox } from '@/client/components/ui/search-box'
import { Spinner } from '@/client/components/ui/spinner'
import { useDebouncedValue } from '@/client/lib/use-debounced-value'
import { formatPhone } from '@/shared/phone-format'
import type { Patient } from '@/shared/schemas/patients'
import { usePatientSearch } from '../api/search-patients'

export interface PickedPatient {
  id: string
  name: string
  patientNumber: string
  phone: string
}

/**
 * Find the patient to bill by name, email or any run of their phone's digits
 * (GET /api/patients?search=). Built for billing; the appointments dialog has its own picker,
 * and the two can become one shared component later.
 */
export function PatientPicker({
  value,
  onChange,
  error,
}: {
  value: PickedPatient | null
  onChange: (patient: PickedPatient | null) => void
  error?: string | undefined
}) {
  const [text, setText] = useState('')
  const search = useDebouncedValue(text.trim(), 250)
  const results = usePatientSearch(search)
  const listId = useId()

  if (value) {
    return (
      <div className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-300 p-3">
        <div className="flex min-w-0 items-center gap-2">
          <UserRound className="size-5 shrink-0 text-slate-500" aria-hidden="true" />
          <div className="min-w-0">
            <p className="font-medium" data-testid="picked-patient">
              {value.name}
            </p>
            <p className="text-xs text-slate-600">
              {value.patientNumber} · {formatPhone(value.phone)}
            </p>
          </div>
        </div>
        <Button type="button" size="sm" variant="outline" onClick={() => onChange(null)}>
          Change patient
        </Button>
      </div>
    )
  }

  const patients: Patient[] = search.length >= 2 ? (results.data ?? []) : []
  return (
    <div className="space-y-2">
      <SearchBox
        value={text}
        onChange={setText}
        placeholder="Search by name, phone or email..."
        label="Search patients to bill"
      />
      {error ? (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
      <div aria-live="polite" className="text-sm">
        {search.length < 2 ? (
          <p className="text-slate-600">Type at least 2 characters.</p>
        ) : results.isPending || (results.isFetching && patients.length === 0) ? (
          <Spinner label="Searching patients" />
        ) : results.isError ? (
          <p className="text-red-700">Failed to search patients. Try again.</p>
        ) : patients.length === 0 ? (
          <p className="text-slate-600">No patients found</p>
        ) : null}
      </div>
      {patients.length > 0 ? (
        <ul
          id={listId}
          aria-label="Matching patients"
          className="divide-y divide-slate-100 rounded-md border border-slate-200"
        >
          {patients.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                className="flex w-full flex-wrap justify-between gap-x-3 px-3 py-2 text-left text-sm hover:bg-slate-50 focus-visible:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
                onClick={() =>
                  onChange({
                    id: p.id,
                    name: p.name,
                    patientNumber: p.patientNumber,
                    phone: p.phone,
                  })
                }
              >
                <span className="font-medium">{p.name}</span>
                <span className="text-slate-600">
                  {p.patientNumber} · {formatPhone(p.phone)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
