import type { ReactNode } from 'react'
import type { BookingPage } from '@/shared/schemas/booking'

/** The booking page's frame: the clinic's name and address, then the step. */
export function PageShell({
  hospital,
  children,
}: {
  hospital?: BookingPage['hospital']
  children: ReactNode
}) {
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto max-w-xl px-4 py-4">
          <p className="text-sm font-medium text-brand-700">Book an appointment</p>
          {hospital ? (
            <>
              <h1 className="text-xl font-semibold text-slate-900">{hospital.name}</h1>
              {hospital.address && <p className="text-sm text-slate-600">{hospital.address}</p>}
            </>
          ) : (
            <h1 className="text-xl font-semibold text-slate-900">Online booking</h1>
          )}
        </div>
      </header>
      <main className="mx-auto max-w-xl px-4 py-5">{children}</main>
      <footer className="mx-auto max-w-xl px-4 pb-8 text-xs text-slate-600">
        Online booking by Arogya CRM. Your name and mobile number are shared only with this clinic,
        to confirm and remind you of your appointment.
        {hospital?.grievance ? (
          <span className="mt-2 block [overflow-wrap:anywhere]">
            Questions or complaints about your data? Contact{' '}
            {hospital.grievance.name ?? 'the grievance officer'},{' '}
            <a className="text-brand-700 underline" href={`mailto:${hospital.grievance.email}`}>
              {hospital.grievance.email}
            </a>
          </span>
        ) : null}
      </footer>
    </div>
  )
}

/** A whole-page message: not available, or could not load (with Try again). */
export function PageMessage({
  title,
  children,
  onRetry,
}: {
  title: string
  children: ReactNode
  onRetry?: () => void
}) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-6 text-center">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      <p className="mt-2 text-slate-600">{children}</p>
      {onRetry && (
        <button type="button" onClick={onRetry} className={primaryButton + ' mt-4'}>
          Try again
        </button>
      )}
    </section>
  )
}

export const primaryButton =
  'inline-flex h-11 items-center justify-center rounded-md bg-brand-700 px-5 text-sm font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60'

export const secondaryButton =
  'inline-flex h-11 items-center justify-center rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 hover:bg-slate-50'

export const inputClass =
  'block h-11 w-full rounded-md border border-slate-300 bg-white px-3 text-base text-slate-900 aria-[invalid=true]:border-red-600'

/** A step's card with its heading. */
export function StepCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4 sm:p-5">
      <h2 className="mb-3 text-lg font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  )
}

/** An inline error with role=alert (announced when it appears). */
export function ErrorText({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} role="alert" className="mt-2 text-sm text-red-700">
      {children}
    </p>
  )
}
