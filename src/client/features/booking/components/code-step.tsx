import { type FormEvent, useEffect, useState } from 'react'
import { ApiError } from '@/client/lib/api-client'
import type { BookingConfirmation, BookingHold } from '@/shared/schemas/booking'
import { useConfirmBooking } from '../api/confirm-booking'
import { ChoiceSummary } from './choice-summary'
import type { Choice } from './choose-step'
import { ErrorText, inputClass, primaryButton, secondaryButton, StepCard } from './page-shell'

/** Seconds until `iso`, never below 0, ticking once a second. */
function useSecondsLeft(iso: string): number {
  const left = () => Math.max(0, Math.round((new Date(iso).getTime() - Date.now()) / 1000))
  const [seconds, setSeconds] = useState(left)
  useEffect(() => {
    const timer = setInterval(() => setSeconds(left()), 1000)
    return () => clearInterval(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- left depends on iso only
  }, [iso])
  return seconds
}

const clock = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`

/** The 6-digit code, while the slot is held. */
export function CodeStep({
  slug,
  choice,
  hold,
  onRestart,
  onBooked,
}: {
  slug: string
  choice: Choice
  hold: BookingHold
  onRestart: () => void
  onBooked: (booked: BookingConfirmation) => void
}) {
  const [code, setCode] = useState('')
  const confirm = useConfirmBooking(slug)
  const seconds = useSecondsLeft(hold.expiresAt)
  const error = confirm.error instanceof ApiError ? confirm.error : null
  // 409 (expired, spent, slot taken) and 404: this hold can no longer be confirmed.
  const over = seconds === 0 || (error !== null && (error.status === 409 || error.status === 404))
  const message = confirm.error
    ? (error?.jsonMessage ?? 'Could not check the code. Check your connection and try again.')
    : seconds === 0
      ? 'The 5 minutes are up and the time is no longer held. Please choose a time again.'
      : null

  const submit = (e: FormEvent) => {
    e.preventDefault()
    confirm.mutate({ holdId: hold.holdId, code: code.trim() }, { onSuccess: onBooked })
  }

  return (
    <StepCard title="5. Enter your code">
      <ChoiceSummary choice={choice} />
      <p className="mt-4 text-slate-800">
        We sent a 6-digit code by {hold.channel === 'whatsapp' ? 'WhatsApp' : 'SMS'} to{' '}
        <span className="font-medium whitespace-nowrap">{hold.sentTo}</span>.
      </p>
      {!over && (
        <p className="mt-1 text-sm text-slate-600" aria-live="off">
          This time is held for you for <span className="font-medium">{clock(seconds)}</span>.
        </p>
      )}
      <form onSubmit={submit} noValidate className="mt-4 space-y-3">
        <div>
          <label htmlFor="booking-code" className="mb-1 block text-sm font-medium text-slate-800">
            Code
          </label>
          <input
            id="booking-code"
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            required
            disabled={over}
            aria-invalid={error?.status === 400 ? true : undefined}
            aria-describedby={message ? 'booking-code-error' : undefined}
            className={inputClass + ' max-w-40 text-center text-lg tracking-[0.3em]'}
          />
        </div>
        {message && <ErrorText id="booking-code-error">{message}</ErrorText>}
        <div className="flex flex-wrap gap-2">
          {!over && (
            <button
              type="submit"
              className={primaryButton}
              disabled={confirm.isPending || code.length !== 6}
            >
              {confirm.isPending ? 'Confirming…' : 'Confirm booking'}
            </button>
          )}
          <button
            type="button"
            className={over ? primaryButton : secondaryButton}
            onClick={onRestart}
          >
            Choose another time
          </button>
        </div>
      </form>
    </StepCard>
  )
}
