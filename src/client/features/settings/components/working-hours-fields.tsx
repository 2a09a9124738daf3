import { type Control, Controller, type FieldErrors } from 'react-hook-form'
import { Input } from '@/client/components/ui/input'
import { weekdayNames, weekdays } from '@/shared/schemas/hospital-settings'
import type { SettingsFormInput } from '@/shared/schemas/settings'

const DEFAULT_DAY: [string, string] = ['09:00', '20:00']

type DayErrors = { message?: string; 0?: { message?: string }; 1?: { message?: string } }

/** One row per weekday: open or closed, and the opening and closing times (HH:mm). */
export function WorkingHoursFields({
  control,
  errors,
}: {
  control: Control<SettingsFormInput>
  errors: NonNullable<FieldErrors<SettingsFormInput>['general']>['workingHours']
}) {
  return (
    <fieldset className="min-w-0 space-y-2">
      <legend className="text-sm font-medium text-slate-800">Working hours</legend>
      <p className="text-xs text-slate-500">
        In the hospital&apos;s time zone. The calendar and the booking page use them.
      </p>
      <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
        {weekdays.map((day) => {
          const dayErrors = (errors as Record<string, DayErrors | undefined> | undefined)?.[day]
          const message = dayErrors?.message ?? dayErrors?.[0]?.message ?? dayErrors?.[1]?.message
          const errorId = `hours-${day}-error`
          return (
            <Controller
              key={day}
              control={control}
              name={`general.workingHours.${day}`}
              render={({ field }) => {
                const value = field.value as [string, string] | null
                const open = value !== null
                return (
                  <li className="flex flex-wrap items-center gap-x-3 gap-y-2 px-3 py-2">
                    <label className="flex w-32 items-center gap-2 text-sm">
                      <input
                        type="checkbox"
                        className="size-4"
                        checked={open}
                        onChange={(e) => field.onChange(e.target.checked ? DEFAULT_DAY : null)}
                      />
                      {weekdayNames[day]}
                    </label>
                    {open ? (
                      <span className="flex w-full min-w-0 items-center gap-1 text-sm sm:w-auto sm:gap-2">
                        <Input
                          type="time"
                          aria-label={`${weekdayNames[day]} opens`}
                          aria-invalid={Boolean(message)}
                          aria-describedby={message ? errorId : undefined}
                          className="min-w-0 flex-1 px-2 sm:w-36 sm:flex-none sm:px-3"
                          value={value[0]}
                          onChange={(e) => field.onChange([e.target.value, value[1]])}
                        />
                        <span aria-hidden="true">–</span>
                        <Input
                          type="time"
                          aria-label={`${weekdayNames[day]} closes`}
                          aria-invalid={Boolean(message)}
                          aria-describedby={message ? errorId : undefined}
                          className="min-w-0 flex-1 px-2 sm:w-36 sm:flex-none sm:px-3"
                          value={value[1]}
                          onChange={(e) => field.onChange([value[0], e.target.value])}
                        />
                      </span>
                    ) : (
                      <span className="text-sm text-slate-600">Closed</span>
                    )}
                    {message ? (
                      <p id={errorId} role="alert" className="w-full text-xs text-red-600">
                        {message}
                      </p>
                    ) : null}
                  </li>
                )
              }}
            />
          )
        })}
      </ul>
    </fieldset>
  )
}
