import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { Controller, useForm, useWatch } from 'react-hook-form'
import { Button } from '@/client/components/ui/button'
import { DateField } from '@/client/components/ui/date-field'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { NativeSelect, Textarea } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import type { Appointment } from '@/shared/schemas/appointments'
import { appointmentDurations } from '@/shared/scheduling'
import { useDoctorAvailability } from './api/get-availability'
import { useDoctors } from './api/get-doctors'
import { useHospitalSchedule } from './api/get-hospital-schedule'
import { useBookableServices } from './api/get-services'
import { useCreateAppointment, usePatchAppointment } from './api/save-appointment'
import {
  type AppointmentFormValues,
  appointmentFormSchema,
  editValues,
  matchService,
  toCreateInput,
  toEditInput,
} from './appointment-form'
import {
  appointmentWhen,
  formatClock,
  hoursOn,
  startTimes,
  takenStartTimes,
  type WallClock,
} from './appointment-time'
import { PatientPicker, type PickedPatient } from './patient-picker'
import { ServiceTypeField } from './service-type-field'

/** What the dialog opens for: a new booking (maybe prefilled) or an existing appointment. */
export type AppointmentDialogTarget =
  | {
      kind: 'new'
      /** Preselected patient (from the patient card). */
      patient?: PickedPatient
      /** Booking from a lead: the server links or creates the patient. */
      lead?: PickedPatient
      /** A calendar slot. */
      slot?: WallClock
      doctorId?: string
    }
  | { kind: 'edit'; appointment: Appointment }

type Name = Exclude<keyof AppointmentFormValues, 'patient'> | 'patientId'

function AppointmentForm({
  target,
  onDone,
}: {
  target: AppointmentDialogTarget
  onDone: (saved: Appointment | null) => void
}) {
  const { timeZone, workingHours } = useHospitalSchedule()
  const doctors = useDoctors()
  const services = useBookableServices()
  const create = useCreateAppointment()
  const patch = usePatchAppointment()
  const [clash, setClash] = useState<string | null>(null)
  const editing = target.kind === 'edit' ? target.appointment : null
  const lead = target.kind === 'new' ? target.lead : undefined
  const initial = editing ? editValues(editing, timeZone) : null
  const form = useForm<AppointmentFormValues>({
    defaultValues: initial ?? {
      patient: target.kind === 'new' ? (target.lead ?? target.patient ?? null) : null,
      doctorId:
        (target.kind === 'new' ? target.doctorId : undefined) ??
        (doctors.data?.length === 1 ? (doctors.data[0]?.id ?? '') : ''),
      serviceType: '',
      date: target.kind === 'new' ? (target.slot?.date ?? '') : '',
      time: target.kind === 'new' ? (target.slot?.time ?? '') : '',
      durationMinutes: '30',
      notes: '',
    },
    resolver: zodResolver(
      appointmentFormSchema(
        timeZone,
        initial ? { date: initial.date, time: initial.time } : undefined,
      ),
    ),
  })
  const errors = form.formState.errors
  const a11y = (name: Name) => ({
    id: `appointment-${name}`,
    'aria-invalid': Boolean(errors[name === 'patientId' ? 'patient' : name]),
    'aria-describedby': errors[name === 'patientId' ? 'patient' : name]
      ? `appointment-${name}-error`
      : undefined,
  })
  const date = useWatch({ control: form.control, name: 'date' })
  const time = useWatch({ control: form.control, name: 'time' })
  const doctorId = useWatch({ control: form.control, name: 'doctorId' })
  const duration = Number(useWatch({ control: form.control, name: 'durationMinutes' })) || 15
  // The doctor's taken times that day: the time list marks them before submit (issue 40).
  const availability = useDoctorAvailability({ doctorId, date, exceptId: editing?.id })
  const times = startTimes(workingHours, 15, time || undefined)
  const taken = availability.data
    ? takenStartTimes(times, date, duration, availability.data.busy, timeZone)
    : new Set<string>()
  const closedDay =
    /^\d{4}-\d{2}-\d{2}$/.test(date) &&
    hoursOn(workingHours, new Date(`${date}T12:00:00Z`).getUTCDay()) === null

  const submit = form.handleSubmit(async (values) => {
    setClash(null)
    const catalogue = services.data ?? []
    try {
      let saved: Appointment
      if (editing) {
        const input = toEditInput(values, editing, timeZone, catalogue)
        if (!input) return onDone(null)
        saved = await patch.mutateAsync({ id: editing.id, input })
      } else {
        saved = await create.mutateAsync(toCreateInput(values, catalogue, lead !== undefined))
      }
      const when = appointmentWhen(saved.appointmentDate, timeZone)
      toast.success(
        editing ? 'Appointment updated' : 'Appointment scheduled',
        `${saved.patientName}, ${when.date} at ${when.time}`,
      )
      onDone(saved)
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setClash(error.serverMessage)
      } else if (error instanceof ApiError && error.status === 400) {
        const fields = error.fieldErrors
        for (const [path, message] of Object.entries(fields)) {
          const name = path === 'patientId' || path === 'leadId' ? 'patient' : path
          if (name in form.getValues())
            form.setError(name as keyof AppointmentFormValues, { type: 'server', message })
        }
        if (Object.keys(fields).length === 0) setClash(error.serverMessage)
      } else {
        setClash(
          editing
            ? 'Failed to update appointment. Please try again.'
            : 'Failed to schedule the appointment. Please try again.',
        )
      }
    }
  })

  const busy = create.isPending || patch.isPending
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <Field
        id="appointment-patientId"
        label={lead ? 'Lead' : 'Patient'}
        required
        error={errors.patient?.message}
        hint={lead ? 'Booked for this lead: their patient record is linked or created.' : undefined}
      >
        <Controller
          control={form.control}
          name="patient"
          render={({ field }) =>
            editing || lead ? (
              <p
                id="appointment-patientId"
                className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm font-medium"
              >
                {field.value?.name}
              </p>
            ) : (
              <PatientPicker
                id="appointment-patientId"
                value={field.value}
                onChange={field.onChange}
                invalid={Boolean(errors.patient)}
                describedBy={a11y('patientId')['aria-describedby']}
              />
            )
          }
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="appointment-doctorId" label="Doctor" required error={errors.doctorId?.message}>
          <NativeSelect {...form.register('doctorId')} {...a11y('doctorId')}>
            <option value="">{doctors.isPending ? 'Loading doctors…' : 'Choose a doctor'}</option>
            {doctors.data?.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field
          id="appointment-serviceType"
          label="Service Type"
          required
          error={errors.serviceType?.message}
          hint="Pick from the catalogue or type your own."
        >
          <Controller
            control={form.control}
            name="serviceType"
            render={({ field }) => (
              <ServiceTypeField
                id="appointment-serviceType"
                value={field.value}
                onChange={(text) => {
                  field.onChange(text)
                  const service = matchService(services.data ?? [], text)
                  const minutes = String(service?.durationMinutes ?? '')
                  if ((appointmentDurations.map(String) as string[]).includes(minutes))
                    form.setValue('durationMinutes', minutes)
                }}
                onBlur={field.onBlur}
                suggestions={services.data?.map((s) => s.name) ?? []}
                invalid={Boolean(errors.serviceType)}
                describedBy={a11y('serviceType')['aria-describedby']}
              />
            )}
          />
        </Field>
        <Field
          id="appointment-date"
          label="Date"
          required
          error={errors.date?.message}
          hint={closedDay ? 'The clinic is closed on this day.' : undefined}
        >
          <Controller
            control={form.control}
            name="date"
            render={({ field }) => (
              <DateField
                {...a11y('date')}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
              />
            )}
          />
        </Field>
        <Field
          id="appointment-time"
          label="Time"
          required
          error={errors.time?.message}
          hint={
            taken.size > 0
              ? `Times marked "booked" would overlap the doctor's other appointments for ${duration} minutes.`
              : undefined
          }
        >
          <NativeSelect {...form.register('time')} {...a11y('time')}>
            <option value="">Choose a time</option>
            {times.map((t) => (
              <option key={t} value={t} disabled={taken.has(t) && t !== time}>
                {taken.has(t) ? `${formatClock(t)} (booked)` : formatClock(t)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field
          id="appointment-durationMinutes"
          label="Duration"
          required
          error={errors.durationMinutes?.message}
        >
          <NativeSelect {...form.register('durationMinutes')} {...a11y('durationMinutes')}>
            {appointmentDurations.map((m) => (
              <option key={m} value={String(m)}>
                {m} minutes
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <Field id="appointment-notes" label="Notes" error={errors.notes?.message}>
        <Textarea {...form.register('notes')} {...a11y('notes')} maxLength={2000} rows={3} />
      </Field>
      <p className="text-xs text-slate-600">
        Times are in the hospital&apos;s time zone ({timeZone}).
      </p>
      {clash ? (
        <p
          role="alert"
          data-testid="appointment-clash"
          className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        >
          {clash}
        </p>
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={() => onDone(null)}>
          Cancel
        </Button>
        <Button type="submit" loading={busy} loadingText="Saving...">
          {editing ? 'Save Changes' : 'Schedule Appointment'}
        </Button>
      </div>
    </form>
  )
}

/** New Appointment or Edit/Reschedule, over any screen (page, patient card, lead, calendar). */
export function AppointmentDialog({
  target,
  onClose,
  onSaved,
}: {
  target: AppointmentDialogTarget | null
  onClose: () => void
  onSaved?: (appointment: Appointment) => void
}) {
  if (!target) return null
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={target.kind === 'edit' ? 'Edit Appointment' : 'New Appointment'}
    >
      <AppointmentForm
        target={target}
        onDone={(saved) => {
          if (saved) onSaved?.(saved)
          onClose()
        }}
      />
    </Dialog>
  )
}
