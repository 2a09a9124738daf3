import { X } from 'lucide-react'
import { type KeyboardEvent, useId, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Input } from '@/client/components/ui/input'
import { Spinner } from '@/client/components/ui/spinner'
import { cn } from '@/client/lib/cn'
import { useDebouncedValue } from '@/client/lib/use-debounced-value'
import { formatPhone } from '@/shared/phone-format'
import { usePatientSearch } from './api/search-patients'

/** The patient a booking is for (or, from a lead, the lead it is booked from). */
export interface PickedPatient {
  id: string
  name: string
  phone?: string | undefined
}

/**
 * A search-as-you-type combobox (WAI-ARIA combobox with a listbox popup): type two or more
 * characters of a name, email or phone, move with the arrow keys, pick with Enter or a click,
 * close with Escape. A picked patient shows as a chip with a button to change it.
 */
export function PatientPicker({
  id,
  value,
  onChange,
  invalid,
  describedBy,
}: {
  id: string
  value: PickedPatient | null
  onChange: (patient: PickedPatient | null) => void
  invalid?: boolean
  describedBy?: string | undefined
}) {
  const [text, setText] = useState('')
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(0)
  const search = useDebouncedValue(text.trim(), 250)
  const results = usePatientSearch(search)
  const listId = useId()
  const options = results.data ?? []

  if (value) {
    return (
      <div className="flex min-w-0 items-center gap-2 rounded-md border border-slate-300 bg-slate-50 px-3 py-2">
        <div className="min-w-0 flex-1" data-testid="picked-patient">
          <p className="truncate text-sm font-medium">{value.name}</p>
          {value.phone ? (
            <p className="text-xs text-slate-600 tabular-nums">{formatPhone(value.phone)}</p>
          ) : null}
        </div>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          onClick={() => {
            onChange(null)
            setText('')
          }}
          aria-label={`Change patient (${value.name})`}
        >
          <X aria-hidden="true" /> Change
        </Button>
      </div>
    )
  }

  function pick(index: number) {
    const patient = options[index]
    if (!patient) return
    onChange({ id: patient.id, name: patient.name, phone: patient.phone })
    setOpen(false)
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      e.preventDefault()
      setOpen(true)
      setActive((i) => Math.min(i + 1, options.length - 1))
    } else if (e.key === 'ArrowUp') {
      e.preventDefault()
      setActive((i) => Math.max(i - 1, 0))
    } else if (e.key === 'Enter' && open && options.length > 0) {
      e.preventDefault()
      pick(active)
    } else if (e.key === 'Escape' && open) {
      e.preventDefault()
      e.stopPropagation()
      setOpen(false)
    }
  }

  const showList = open && search.length >= 2
  const optionId = (i: number) => `${listId}-option-${i}`
  return (
    <div className="relative min-w-0">
      <Input
        id={id}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && options[active] ? optionId(active) : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        placeholder="Search by name, email or phone"
        value={text}
        onChange={(e) => {
          setText(e.target.value)
          setActive(0)
          setOpen(true)
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {results.isFetching && search.length >= 2 ? (
        <span className="absolute top-3 right-3">
          <Spinner label="Searching patients" />
        </span>
      ) : null}
      <ul
        id={listId}
        role="listbox"
        aria-label="Matching patients"
        className={cn(
          'absolute z-10 mt-1 max-h-60 w-full overflow-y-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg',
          !showList && 'hidden',
        )}
      >
        {options.map((p, i) => (
          <li
            key={p.id}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            // mousedown, not click: the input's blur would close the list first.
            onMouseDown={(e) => {
              e.preventDefault()
              pick(i)
            }}
            onMouseEnter={() => setActive(i)}
            className={cn(
              'cursor-pointer px-3 py-2 text-sm',
              i === active ? 'bg-brand-50 text-brand-800' : 'text-slate-800',
            )}
          >
            <span className="block truncate font-medium">{p.name}</span>
            <span className="block text-xs text-slate-600 tabular-nums">
              {formatPhone(p.phone)} · {p.patientNumber}
            </span>
          </li>
        ))}
        {showList && results.isSuccess && options.length === 0 && !results.isFetching ? (
          <li role="presentation" className="px-3 py-2 text-sm text-slate-600">
            No patients found
          </li>
        ) : null}
        {showList && results.isError ? (
          <li role="presentation" className="px-3 py-2 text-sm text-red-700">
            Failed to search patients
          </li>
        ) : null}
      </ul>
    </div>
  )
}
