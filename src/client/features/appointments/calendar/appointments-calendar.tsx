import { format, getDay, parse, startOfWeek } from 'date-fns'
import { enUS } from 'date-fns/locale'
import { useMemo, useState } from 'react'
import {
  Calendar,
  dateFnsLocalizer,
  type EventProps,
  type Formats,
  type HeaderProps,
} from 'react-big-calendar'
import dragAndDrop, { type EventInteractionArgs } from 'react-big-calendar/lib/addons/dragAndDrop'
import 'react-big-calendar/lib/css/react-big-calendar.css'
import 'react-big-calendar/lib/addons/dragAndDrop/styles.css'
import './calendar.css'
import { useAppointments } from '@/client/components/appointments/api/get-appointments'
import { useDoctors } from '@/client/components/appointments/api/get-doctors'
import { usePatchAppointment } from '@/client/components/appointments/api/save-appointment'
import {
  calendarBounds,
  isWithinHours,
  slotToInstant,
  wallClockParts,
  type WallClock,
  zonedWallClock,
} from '@/client/components/appointments/appointment-time'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { NativeSelect } from '@/client/components/ui/input'
import { toast } from '@/client/lib/toast'
import { useMediaQuery } from '@/client/lib/use-media-query'
import type { Appointment } from '@/shared/schemas/appointments'
import type { WorkingHours } from '@/shared/scheduling'
import { updateErrorText } from '../components/appointment-actions'
import {
  type CalendarEvent,
  type CalendarView,
  isMovable,
  moved,
  toEvents,
  visibleRange,
} from './calendar-events'
import { CalendarToolbar } from './calendar-toolbar'

const localizer = dateFnsLocalizer({
  format,
  parse,
  startOfWeek: (d: Date) => startOfWeek(d, { weekStartsOn: 0 }),
  getDay,
  locales: { 'en-US': enUS },
})
// The drag-and-drop addon ships as CommonJS only: the bundle hands its default export over either
// as the function or as the module object holding it.
const withDragAndDrop =
  (dragAndDrop as unknown as { default?: typeof dragAndDrop }).default ?? dragAndDrop
const DnDCalendar = withDragAndDrop<CalendarEvent>(Calendar)

/** Spec section 9: 'MMM dd, yyyy' and 'h:mm a'. */
const formats: Formats = {
  timeGutterFormat: 'h:mm a',
  dayFormat: 'EEE dd',
  dayHeaderFormat: 'EEEE, MMM dd, yyyy',
  dayRangeHeaderFormat: ({ start, end }) =>
    `${format(start, 'MMM dd')} – ${format(end, 'MMM dd, yyyy')}`,
  eventTimeRangeFormat: ({ start, end }) => `${format(start, 'h:mm a')} – ${format(end, 'h:mm a')}`,
}

/** A column's day, as plain text (the library's own header carries a stray columnheader role). */
function DayHeader({ label }: HeaderProps) {
  return <span>{label}</span>
}

/**
 * An event's face (issue 40): the patient's name first, on its own line, then the time and
 * service, so a 15-minute appointment (a quarter of an hour's row) still reads whose it is. The
 * library's own time label, which took that first line, is hidden in calendar.css.
 */
function EventFace({ event }: EventProps<CalendarEvent>) {
  const a = event.appointment
  return (
    <span className="appt-face" data-testid="calendar-event">
      <span className="appt-name">{a.patientName}</span>{' '}
      <span className="appt-detail">
        {format(event.start, 'h:mm a')} · {a.serviceType}
        {a.doctorName ? ` · ${a.doctorName}` : ''}
      </span>
    </span>
  )
}

export interface AppointmentsCalendarProps {
  timeZone: string
  workingHours: WorkingHours
  canWrite: boolean
  /** An empty open slot was clicked: book it. */
  onBook: (slot: WallClock, doctorId: string | undefined) => void
  onEdit: (appointment: Appointment) => void
}

/**
 * Day and week views of the hospital's appointments (react-big-calendar), for one doctor or
 * all, in the hospital's zone; closed days and hours greyed; click an empty open slot to book,
 * drag an open appointment to move it (reverted, with the server's reason, when refused).
 */
export default function AppointmentsCalendar({
  timeZone,
  workingHours,
  canWrite,
  onBook,
  onEdit,
}: AppointmentsCalendarProps) {
  const narrow = useMediaQuery('(max-width: 639px)')
  const [view, setView] = useState<CalendarView>(narrow ? 'day' : 'week')
  const [date, setDate] = useState(() => zonedWallClock(new Date(), timeZone))
  const [doctorId, setDoctorId] = useState('')
  const [notice, setNotice] = useState<string | null>(null)
  const [movedTo, setMovedTo] = useState<Record<string, Date>>({})
  const doctors = useDoctors()
  const patch = usePatchAppointment()
  const range = visibleRange(view, date, timeZone)
  const query = useAppointments({ ...range, doctorId: doctorId || undefined, limit: 500 })
  const { min, max } = useMemo(() => calendarBounds(workingHours), [workingHours])
  const events = useMemo(
    () =>
      toEvents(query.data ?? [], timeZone).map((e) => {
        const start = movedTo[e.id]
        return start ? moved(e, start) : e
      }),
    [query.data, timeZone, movedTo],
  )

  function isBookable(start: Date, minutes: number): string | null {
    if (!isWithinHours(workingHours, start, minutes)) return 'The clinic is closed at that time.'
    if (slotToInstant(start, timeZone) <= new Date()) return 'That time has passed.'
    return null
  }

  async function onDrop({ event, start }: EventInteractionArgs<CalendarEvent>) {
    const to = new Date(start)
    const problem = isBookable(to, event.appointment.duration)
    if (problem) return setNotice(problem)
    setNotice(null)
    setMovedTo((m) => ({ ...m, [event.id]: to }))
    try {
      await patch.mutateAsync({ id: event.id, input: wallClockParts(to) })
      toast.success(
        'Appointment rescheduled',
        `${event.appointment.patientName}, ${format(to, 'MMM dd, yyyy')} at ${format(to, 'h:mm a')}`,
      )
    } catch (error) {
      setNotice(updateErrorText(error))
    } finally {
      // The refreshed list (or, on a refusal, the old time) takes over.
      setMovedTo((m) => Object.fromEntries(Object.entries(m).filter(([id]) => id !== event.id)))
    }
  }

  return (
    <div className="appointments-calendar min-w-0 space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-full min-w-0 space-y-1 sm:w-60">
          <label htmlFor="calendar-doctor" className="block text-sm font-medium text-slate-800">
            Doctor
          </label>
          <NativeSelect
            id="calendar-doctor"
            value={doctorId}
            onChange={(e) => setDoctorId(e.target.value)}
          >
            <option value="">All doctors</option>
            {doctors.data?.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </NativeSelect>
        </div>
        <p className="text-xs text-slate-600">
          Times in {timeZone}.{' '}
          {canWrite ? 'Click an open slot to book; drag an appointment to move it.' : ''}
        </p>
      </div>
      {notice ? (
        <p
          role="alert"
          data-testid="calendar-notice"
          className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        >
          {notice}
        </p>
      ) : null}
      {query.isError ? (
        <InlineLoadError
          message="Failed to fetch appointments"
          onRetry={() => void query.refetch()}
        />
      ) : null}
      <div
        className="h-[70vh] min-h-[32rem]"
        aria-busy={query.isPending}
        data-testid="appointments-calendar"
      >
        <DnDCalendar
          localizer={localizer}
          culture="en-US"
          formats={formats}
          events={events}
          views={['day', 'week']}
          view={view}
          onView={(v) => setView(v === 'day' ? 'day' : 'week')}
          date={date}
          onNavigate={(d) => setDate(d)}
          getNow={() => zonedWallClock(new Date(), timeZone)}
          min={min}
          max={max}
          step={15}
          timeslots={4}
          components={{ toolbar: CalendarToolbar, header: DayHeader, event: EventFace }}
          tooltipAccessor={(e) => e.title}
          slotPropGetter={(d) =>
            isWithinHours(workingHours, d) ? {} : { className: 'rbc-closed-slot' }
          }
          dayPropGetter={(d) =>
            workingHours[String(d.getDay()) as keyof WorkingHours]
              ? {}
              : { className: 'rbc-closed-day' }
          }
          eventPropGetter={(e) => ({
            className: `appt-${e.appointment.status}${e.appointment.source === 'online' ? ' appt-online' : ''}`,
          })}
          selectable={canWrite}
          onSelectSlot={({ start }) => {
            const problem = isBookable(start, 15)
            if (problem) return setNotice(problem)
            setNotice(null)
            onBook(wallClockParts(start), doctorId || undefined)
          }}
          onSelectEvent={(e) => {
            if (canWrite && isMovable(e)) onEdit(e.appointment)
          }}
          draggableAccessor={(e) => canWrite && isMovable(e)}
          resizable={false}
          onEventDrop={(args) => void onDrop(args)}
        />
      </div>
    </div>
  )
}
