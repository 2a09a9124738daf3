import type { UseFormRegisterReturn } from 'react-hook-form'

/** A labelled on/off switch (a native checkbox with role=switch) and its explanation. */
export function SettingSwitch({
  id,
  label,
  hint,
  registration,
  error,
}: {
  id: string
  label: string
  hint: string
  registration: UseFormRegisterReturn
  /** The server's refusal of this switch, shown under its hint. */
  error?: string | undefined
}) {
  return (
    <div className="flex items-start gap-3 text-sm">
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="mt-0.5 size-4 shrink-0"
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
        aria-invalid={error ? true : undefined}
        {...registration}
      />
      <div className="min-w-0">
        <label htmlFor={id} className="font-medium text-slate-800">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-slate-600">
          {hint}
        </p>
        {error ? (
          <p id={`${id}-error`} role="alert" className="text-red-700">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  )
}
