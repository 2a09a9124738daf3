import type { UseFormRegisterReturn } from 'react-hook-form'

/** A labelled on/off switch (a native checkbox with role=switch) and its explanation. */
export function SettingSwitch({
  id,
  label,
  hint,
  registration,
}: {
  id: string
  label: string
  hint: string
  registration: UseFormRegisterReturn
}) {
  return (
    <div className="flex items-start gap-3 text-sm">
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="mt-0.5 size-4 shrink-0"
        aria-describedby={`${id}-hint`}
        {...registration}
      />
      <div className="min-w-0">
        <label htmlFor={id} className="font-medium text-slate-800">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-slate-600">
          {hint}
        </p>
      </div>
    </div>
  )
}
