import { useEffect, useState } from 'react'
import { useParams } from 'wouter'
import { ApiError } from '@/client/lib/api-client'
import type { BookingConfirmation, BookingHold } from '@/shared/schemas/booking'
import { useBookingPage } from './api/get-booking-page'
import { BookedStep } from './components/booked-step'
import { ChooseStep, type Choice } from './components/choose-step'
import { CodeStep } from './components/code-step'
import { DetailsStep } from './components/details-step'
import { PageShell, PageMessage } from './components/page-shell'

type Step =
  | { kind: 'choose' }
  | { kind: 'details'; choice: Choice }
  | { kind: 'code'; choice: Choice; hold: BookingHold }
  | { kind: 'booked'; booked: BookingConfirmation }

/**
 * /book/:slug, a hospital's public booking page (issue 26): choose a service, a doctor (or any)
 * and a free slot in the next 14 days; give name and mobile; confirm with the code sent by
 * WhatsApp or SMS; see the booking in the hospital's time zone. Phone-first and light: no staff
 * code, no UI library beyond React Query.
 */
export function BookingPage() {
  const { slug = '' } = useParams<{ slug: string }>()
  const page = useBookingPage(slug)
  const [step, setStep] = useState<Step>({ kind: 'choose' })
  const [lastChoice, setLastChoice] = useState<Choice | null>(null)
  const hospitalName = page.data?.hospital.name

  useEffect(() => {
    document.title = hospitalName
      ? `Book an appointment · ${hospitalName}`
      : 'Book an appointment · Arogya CRM'
  }, [hospitalName])

  if (page.isPending) {
    return (
      <PageShell>
        <p role="status" className="py-16 text-center text-slate-600">
          Loading the booking page…
        </p>
      </PageShell>
    )
  }
  if (page.isError) {
    const missing = page.error instanceof ApiError && page.error.status === 404
    return (
      <PageShell>
        {missing ? (
          <PageMessage title="This booking page is not available">
            The clinic has not turned on online booking, or the link is wrong. Please call the
            clinic to book an appointment.
          </PageMessage>
        ) : (
          <PageMessage
            title="We could not load the booking page"
            onRetry={() => void page.refetch()}
          >
            Check your connection and try again.
          </PageMessage>
        )}
      </PageShell>
    )
  }

  const data = page.data
  const restart = () => setStep({ kind: 'choose' })
  return (
    <PageShell hospital={data.hospital}>
      {step.kind === 'choose' && (
        <ChooseStep
          slug={slug}
          page={data}
          initial={lastChoice}
          onChosen={(choice) => {
            setLastChoice(choice)
            setStep({ kind: 'details', choice })
          }}
        />
      )}
      {step.kind === 'details' && (
        <DetailsStep
          slug={slug}
          choice={step.choice}
          onBack={restart}
          onHeld={(hold) => setStep({ kind: 'code', choice: step.choice, hold })}
        />
      )}
      {step.kind === 'code' && (
        <CodeStep
          slug={slug}
          choice={step.choice}
          hold={step.hold}
          onRestart={restart}
          onBooked={(booked) => {
            setLastChoice(null)
            setStep({ kind: 'booked', booked })
          }}
        />
      )}
      {step.kind === 'booked' && <BookedStep booked={step.booked} />}
    </PageShell>
  )
}
