import { clampPercent } from '../backup-view'

/** A labelled bar for a backup or a restore under way (the label names what runs). */
export function ProgressBar({
  id,
  label,
  value,
}: {
  id: string
  label: string
  value: number | null | undefined
}) {
  const percent = clampPercent(value)
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap justify-between gap-x-3 text-xs text-slate-700">
        <span id={id}>{label}</span>
        <span aria-hidden="true">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={id}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%`}
        className="h-2.5 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className="h-full rounded-full bg-brand-600 transition-[width]"
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  )
}
