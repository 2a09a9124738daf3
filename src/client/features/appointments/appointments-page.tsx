import { useQuery } from '@tanstack/react-query'
import { Plus } from 'lucide-react'
import { useState } from 'react'
import { useLocation, useSearch } from 'wouter'
import { useHospitalSchedule } from '@/client/components/appointments/api/get-hospital-schedule'
import {
  AppointmentDialog,
  type AppointmentDialogTarget,
} from '@/client/components/appointments/appointment-dialog'
import { Button } from '@/client/components/ui/button'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/client/components/ui/tabs'
import { api } from '@/client/lib/api-client'
import { useCan } from '@/client/lib/current-user'
import { useOpenFromUrl } from '@/client/lib/use-open-from-url'
import { paths } from '@/client/paths'
import type { AppointmentListWhen } from '@/shared/schemas/appointments'
import type { Patient } from '@/shared/schemas/patients'
import { LazyAppointmentsCalendar } from './calendar/lazy-appointments-calendar'
import { AppointmentsFilters, type ListFilters } from './components/appointments-filters'
import { AppointmentsList, WhenToggle } from './components/appointments-list'

/** ?patientId=<id> (the patients table's Schedule button) opens New Appointment for them. */
function usePatientToBook(): { id: string; patient: Patient | undefined } | null {
  const id = new URLSearchParams(useSearch()).get('patientId')
  const patient = useQuery({
    queryKey: ['/api/patients', id ?? ''],
    queryFn: () => api.get<Patient>(`/api/patients/${encodeURIComponent(id ?? '')}`),
    enabled: Boolean(id),
  })
  return id ? { id, patient: patient.data } : null
}

/** /appointments: the list with its filters, or the calendar; New Appointment and Edit. */
export function AppointmentsPage() {
  const canWrite = useCan('appointments:write')
  const { timeZone, workingHours } = useHospitalSchedule()
  const [filters, setFilters] = useState<ListFilters>({ date: '', status: '' })
  const [when, setWhen] = useState<AppointmentListWhen>('upcoming')
  const [target, setTarget] = useState<AppointmentDialogTarget | null>(null)
  useOpenFromUrl(canWrite, () => setTarget({ kind: 'new' })) // ?new=1: the command palette
  const [, navigate] = useLocation()
  const toBook = usePatientToBook()
  const [bookedFromUrl, setBookedFromUrl] = useState<string | null>(null)
  if (canWrite && toBook?.patient && bookedFromUrl !== toBook.id) {
    setBookedFromUrl(toBook.id)
    const p = toBook.patient
    setTarget({ kind: 'new', patient: { id: p.id, name: p.name, phone: p.phone } })
  }

  function close() {
    setTarget(null)
    if (toBook) navigate(paths.appointments, { replace: true })
  }

  return (
    <div className="min-w-0 space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Appointments</h1>
        {canWrite ? (
          <Button onClick={() => setTarget({ kind: 'new' })}>
            <Plus aria-hidden="true" /> New Appointment
          </Button>
        ) : null}
      </div>
      <Tabs defaultValue="list">
        <TabsList aria-label="Appointments view">
          <TabsTrigger value="list">List</TabsTrigger>
          <TabsTrigger value="calendar">Calendar</TabsTrigger>
        </TabsList>
        <TabsContent value="list" className="space-y-4">
          <AppointmentsFilters applied={filters} onApply={setFilters} />
          {filters.date ? null : <WhenToggle when={when} onChange={setWhen} />}
          <AppointmentsList
            // A new filter or view starts at page 1.
            key={`${when}|${filters.date}|${filters.status}`}
            filters={filters}
            when={when}
            timeZone={timeZone}
            canWrite={canWrite}
            onEdit={(appointment) => setTarget({ kind: 'edit', appointment })}
          />
        </TabsContent>
        <TabsContent value="calendar">
          <LazyAppointmentsCalendar
            timeZone={timeZone}
            workingHours={workingHours}
            canWrite={canWrite}
            onBook={(slot, doctorId) =>
              setTarget({ kind: 'new', slot, ...(doctorId ? { doctorId } : {}) })
            }
            onEdit={(appointment) => setTarget({ kind: 'edit', appointment })}
          />
        </TabsContent>
      </Tabs>
      <AppointmentDialog target={target} onClose={close} />
    </div>
  )
}
