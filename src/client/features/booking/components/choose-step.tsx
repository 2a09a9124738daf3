import { useState } from 'react'
import type {
  BookingDoctor,
  BookingPage,
  BookingService,
  BookingSlot,
} from '@/shared/schemas/booking'
import { DayPicker } from './day-picker'
import { inputClass, StepCard } from './page-shell'
import { SlotList } from './slot-list'

export interface Choice {
  service: BookingService
  /** null: any doctor (the clinic picks one who is free). */
  doctor: BookingDoctor | null
  date: string
  dateLabel: string
  slot: BookingSlot
}

const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' })

/** Service, doctor, day and a free time. */
export function ChooseStep({
  slug,
  page,
  initial,
  onChosen,
}: {
  slug: string
  page: BookingPage
  initial: Choice | null
  onChosen: (choice: Choice) => void
}) {
  const firstOpen = page.days.find((d) => d.open)?.date ?? page.days[0]?.date ?? ''
  const [serviceId, setServiceId] = useState(initial?.service.id ?? page.services[0]?.id ?? '')
  const [doctorId, setDoctorId] = useState(initial?.doctor?.id ?? 'any')
  const [date, setDate] = useState(initial?.date ?? firstOpen)
  const service = page.services.find((s) => s.id === serviceId)

  if (page.services.length === 0 || page.doctors.length === 0) {
    return (
      <StepCard title="No online bookings right now">
        <p className="text-slate-600">
          This clinic has no services or doctors open for online booking at the moment. Please call
          the clinic to book.
        </p>
      </StepCard>
    )
  }

  return (
    <div className="space-y-4">
      <StepCard title="1. Choose a service">
        <fieldset>
          <legend className="sr-only">Service</legend>
          <div className="space-y-2">
            {page.services.map((s) => (
              <label
                key={s.id}
                className="flex cursor-pointer items-center gap-3 rounded-md border border-slate-200 p-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
              >
                <input
                  type="radio"
                  name="service"
                  value={s.id}
                  checked={serviceId === s.id}
                  onChange={() => setServiceId(s.id)}
                  className="h-4 w-4 accent-brand-700"
                />
                <span className="min-w-0 flex-1">
                  <span className="block font-medium text-slate-900">{s.name}</span>
                  <span className="block text-sm text-slate-600">
                    {s.durationMinutes} minutes
                    {s.price > 0 ? ` · ${rupees.format(s.price / 100)}` : ''}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      </StepCard>

      <StepCard title="2. Choose a doctor">
        <label htmlFor="booking-doctor" className="mb-1 block text-sm font-medium text-slate-800">
          Doctor
        </label>
        <select
          id="booking-doctor"
          value={doctorId}
          onChange={(e) => setDoctorId(e.target.value)}
          className={inputClass}
        >
          <option value="any">Any doctor</option>
          {page.doctors.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </select>
      </StepCard>

      <StepCard title="3. Choose a day and time">
        <DayPicker days={page.days} value={date} onChange={setDate} />
        {service && date && (
          <SlotList
            request={{ slug, serviceId: service.id, doctorId, date }}
            timeZone={page.hospital.timeZone}
            onPick={(slot, dateLabel) =>
              onChosen({
                service,
                doctor: page.doctors.find((d) => d.id === doctorId) ?? null,
                date,
                dateLabel,
                slot,
              })
            }
          />
        )}
      </StepCard>
    </div>
  )
}
