import { type Control, Controller } from 'react-hook-form'
import { cn } from '@/client/lib/cn'
import { MAX_REMINDER_OFFSETS } from '@/shared/schemas/hospital-settings'
import type { SettingsFormInput } from '@/shared/schemas/settings'

/** Common choices, in minutes before the appointment. */
const presets = [15, 30, 60, 120, 180, 360, 720, 1440, 2880, 4320, 10080]

/** '2 hours', '1 day', '90 minutes'. */
export function offsetLabel(minutes: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`
  if (minutes % 1440 === 0) return plural(minutes / 1440, 'day')
  if (minutes % 60 === 0) return plural(minutes / 60, 'hour')
  return plural(minutes, 'minute')
}

/** Up to 4 reminder times, picked as toggle buttons; stored values outside the presets show too. */
export function ReminderOffsetsField({
  control,
  error,
}: {
  control: Control<SettingsFormInput>
  error?: string | undefined
}) {
  return (
    <Controller
      control={control}
      name="general.reminderOffsets"
      render={({ field }) => {
        const chosen = field.value
        const options = [...new Set([...presets, ...chosen])].sort((a, b) => a - b)
        const toggle = (minutes: number) =>
          field.onChange(
            chosen.includes(minutes) ? chosen.filter((m) => m !== minutes) : [...chosen, minutes],
          )
        return (
          <fieldset className="min-w-0 space-y-2" aria-describedby="reminders-hint">
            <legend className="text-sm font-medium text-slate-800">
              Appointment reminders before the visit
            </legend>
            <div className="flex flex-wrap gap-2">
              {options.map((minutes) => {
                const on = chosen.includes(minutes)
                return (
                  <button
                    key={minutes}
                    type="button"
                    aria-pressed={on}
                    disabled={!on && chosen.length >= MAX_REMINDER_OFFSETS}
                    onClick={() => toggle(minutes)}
                    className={cn(
                      'rounded-full border px-3 py-1 text-sm disabled:opacity-50',
                      on
                        ? 'border-brand-700 bg-brand-700 text-white'
                        : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50',
                    )}
                  >
                    {offsetLabel(minutes)}
                  </button>
                )
              })}
            </div>
            {error ? (
              <p role="alert" className="text-xs text-red-600">
                {error}
              </p>
            ) : (
              <p id="reminders-hint" className="text-xs text-slate-500">
                Choose 1 to {MAX_REMINDER_OFFSETS}. By WhatsApp, else SMS, else email.
              </p>
            )}
          </fieldset>
        )
      }}
    />
  )
}
