import { ChevronLeft, ChevronRight } from 'lucide-react'
import type { ToolbarProps } from 'react-big-calendar'
import { Button } from '@/client/components/ui/button'
import type { CalendarEvent } from './calendar-events'

/** The calendar's own toolbar: Today, previous, next, the range shown, and Day | Week. */
export function CalendarToolbar({ label, view, onNavigate, onView }: ToolbarProps<CalendarEvent>) {
  return (
    <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
      <div className="flex items-center gap-1">
        <Button size="sm" variant="outline" onClick={() => onNavigate('TODAY')}>
          Today
        </Button>
        <Button size="sm" variant="ghost" onClick={() => onNavigate('PREV')} aria-label="Previous">
          <ChevronLeft aria-hidden="true" />
        </Button>
        <Button size="sm" variant="ghost" onClick={() => onNavigate('NEXT')} aria-label="Next">
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
      <p
        className="order-last w-full text-sm font-semibold sm:order-none sm:w-auto"
        aria-live="polite"
        data-testid="calendar-range"
      >
        {label}
      </p>
      <div className="flex gap-1" role="group" aria-label="Calendar view">
        {(['day', 'week'] as const).map((v) => (
          <Button
            key={v}
            size="sm"
            variant={view === v ? 'default' : 'outline'}
            aria-pressed={view === v}
            onClick={() => onView(v)}
          >
            {v === 'day' ? 'Day' : 'Week'}
          </Button>
        ))}
      </div>
    </div>
  )
}
