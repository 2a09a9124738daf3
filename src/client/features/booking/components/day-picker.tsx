import type { BookingDay } from '@/shared/schemas/booking'

/** The next 14 days as a 7-column grid (fits 360 px); closed days cannot be chosen. */
export function DayPicker({
  days,
  value,
  onChange,
}: {
  days: BookingDay[]
  value: string
  onChange: (date: string) => void
}) {
  return (
    <div role="group" aria-label="Day" className="grid grid-cols-7 gap-1.5">
      {days.map((d) => {
        const [weekday = '', monthDay = ''] = d.label.split(', ')
        const dayNumber = monthDay.split(' ')[1] ?? monthDay
        const selected = d.date === value
        return (
          <button
            key={d.date}
            type="button"
            disabled={!d.open}
            aria-pressed={selected}
            aria-label={`${d.label}${d.open ? '' : ' (closed)'}`}
            onClick={() => onChange(d.date)}
            className={
              'flex h-14 min-w-0 flex-col items-center justify-center rounded-md border text-sm ' +
              (selected
                ? 'border-brand-700 bg-brand-700 text-white'
                : d.open
                  ? 'border-slate-300 bg-white text-slate-900 hover:border-brand-700'
                  : 'cursor-not-allowed border-slate-200 bg-slate-100 text-slate-500 line-through')
            }
          >
            <span className="text-xs" aria-hidden="true">
              {weekday}
            </span>
            <span className="font-semibold" aria-hidden="true">
              {dayNumber}
            </span>
          </button>
        )
      })}
    </div>
  )
}
