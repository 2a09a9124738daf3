import { useEffect, useRef } from 'react'
import { formatPhone } from '@/shared/phone-format'
import type { BookingConfirmation } from '@/shared/schemas/booking'
import { zoneName } from './slot-list'

/** The booking, with its date and time in the hospital's time zone. */
export function BookedStep({ booked }: { booked: BookingConfirmation }) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  return (
    <section
      className="rounded-lg border border-brand-700 bg-white p-5"
      aria-labelledby="booked-title"
    >
      <h2
        id="booked-title"
        ref={heading}
        tabIndex={-1}
        className="text-xl font-semibold text-brand-800 outline-none"
      >
        Your appointment is booked
      </h2>
      <p className="mt-1 text-slate-700">
        {booked.patientName}, we look forward to seeing you at {booked.hospitalName}.
      </p>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600">Date</dt>
        <dd className="font-medium text-slate-900">{booked.dateLabel}</dd>
        <dt className="text-slate-600">Time</dt>
        <dd className="font-medium text-slate-900">
          {booked.timeLabel}{' '}
          <span className="font-normal text-slate-600">({zoneName(booked.timeZone)})</span>
        </dd>
        <dt className="text-slate-600">Service</dt>
        <dd className="font-medium text-slate-900">{booked.serviceName}</dd>
        <dt className="text-slate-600">Doctor</dt>
        <dd className="font-medium text-slate-900">{booked.doctorName}</dd>
      </dl>
      <p className="mt-4 text-sm text-slate-600">
        {booked.confirmationSent
          ? 'A confirmation is on its way to your phone, and the clinic will remind you before your appointment.'
          : 'The clinic will remind you before your appointment.'}{' '}
        {booked.clinicPhone ? (
          <>
            To change or cancel it, call the clinic on{' '}
            <a
              href={`tel:${booked.clinicPhone}`}
              className="font-medium whitespace-nowrap text-brand-800 underline"
              data-testid="clinic-phone"
            >
              {formatPhone(booked.clinicPhone)}
            </a>
            .
          </>
        ) : (
          'To change or cancel it, please call the clinic.'
        )}
      </p>
    </section>
  )
}
