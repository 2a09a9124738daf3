import { Filter, X } from 'lucide-react'
import { useState } from 'react'
import { appointmentStatusLabels } from '@/client/components/appointments/appointment-status-badge'
import { Button } from '@/client/components/ui/button'
import { DateField } from '@/client/components/ui/date-field'
import { dateValueError } from '@/client/components/ui/date-field-text'
import { NativeSelect } from '@/client/components/ui/input'
import { type AppointmentStatus, appointmentStatuses } from '@/shared/scheduling'

export interface ListFilters {
  /** 'yyyy-MM-dd' or '' (no date filter). */
  date: string
  status: AppointmentStatus | ''
}

/**
 * The spec's date filter, status filter and Filter button: the choices apply when Filter is
 * pressed (or Enter); Clear drops both.
 */
export function AppointmentsFilters({
  applied,
  onApply,
}: {
  applied: ListFilters
  onApply: (filters: ListFilters) => void
}) {
  const [draft, setDraft] = useState<ListFilters>(applied)
  const dateError = dateValueError(draft.date)
  const active = applied.date !== '' || applied.status !== ''
  return (
    <form
      role="search"
      aria-label="Filter appointments"
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault()
        if (!dateError) onApply(draft)
      }}
    >
      <div className="w-full min-w-0 space-y-1 sm:w-44">
        <label htmlFor="appointments-date" className="block text-sm font-medium text-slate-800">
          Date
        </label>
        <DateField
          id="appointments-date"
          value={draft.date}
          onChange={(date) => setDraft((d) => ({ ...d, date }))}
          aria-invalid={Boolean(dateError)}
          aria-describedby={dateError ? 'appointments-date-error' : undefined}
        />
        {dateError ? (
          <p id="appointments-date-error" role="alert" className="text-xs text-red-600">
            {dateError}
          </p>
        ) : null}
      </div>
      <div className="w-full min-w-0 space-y-1 sm:w-44">
        <label htmlFor="appointments-status" className="block text-sm font-medium text-slate-800">
          Status
        </label>
        <NativeSelect
          id="appointments-status"
          value={draft.status}
          onChange={(e) =>
            setDraft((d) => ({ ...d, status: e.target.value as ListFilters['status'] }))
          }
        >
          <option value="">All statuses</option>
          {appointmentStatuses.map((s) => (
            <option key={s} value={s}>
              {appointmentStatusLabels[s]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="flex gap-2">
        <Button type="submit" variant="outline">
          <Filter aria-hidden="true" /> Filter
        </Button>
        {active ? (
          <Button
            type="button"
            variant="ghost"
            onClick={() => {
              const none: ListFilters = { date: '', status: '' }
              setDraft(none)
              onApply(none)
            }}
          >
            <X aria-hidden="true" /> Clear
          </Button>
        ) : null}
      </div>
    </form>
  )
}
