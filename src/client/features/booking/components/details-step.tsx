import { type FormEvent, useState } from 'react'
import { ApiError } from '@/client/lib/api-client'
import type { BookingHold } from '@/shared/schemas/booking'
import { useCreateBookingHold } from '../api/create-booking-hold'
import type { Choice } from './choose-step'
import { ChoiceSummary } from './choice-summary'
import { ErrorText, inputClass, primaryButton, secondaryButton, StepCard } from './page-shell'

type Channel = 'whatsapp' | 'sms'

/**
 * Name, mobile and how the code should come. The server checks the mobile (+91, the project's
 * phone rules) and answers field messages, shown beside the fields.
 */
export function DetailsStep({
  slug,
  choice,
  onBack,
  onHeld,
}: {
  slug: string
  choice: Choice
  onBack: () => void
  onHeld: (hold: BookingHold) => void
}) {
  const [name, setName] = useState('')
  const [phone, setPhone] = useState('')
  const [channel, setChannel] = useState<Channel>('whatsapp')
  const hold = useCreateBookingHold(slug)
  const error = hold.error instanceof ApiError ? hold.error : null
  const fields = error?.fieldErrors ?? {}
  const formError =
    hold.error && !fields.name && !fields.phone
      ? (error?.jsonMessage ?? 'Could not send the code. Check your connection and try again.')
      : null

  const submit = (e: FormEvent) => {
    e.preventDefault()
    hold.mutate(
      {
        serviceId: choice.service.id,
        doctorId: choice.doctor?.id ?? null,
        startsAt: choice.slot.startsAt,
        name,
        phone,
        channel,
      },
      { onSuccess: onHeld },
    )
  }

  return (
    <StepCard title="4. Your details">
      <ChoiceSummary choice={choice} />
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <div>
          <label htmlFor="booking-name" className="mb-1 block text-sm font-medium text-slate-800">
            Full name
          </label>
          <input
            id="booking-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="name"
            required
            maxLength={80}
            aria-invalid={fields.name ? true : undefined}
            aria-describedby={fields.name ? 'booking-name-error' : undefined}
            className={inputClass}
          />
          {fields.name && <ErrorText id="booking-name-error">{fields.name}</ErrorText>}
        </div>
        <div>
          <label htmlFor="booking-phone" className="mb-1 block text-sm font-medium text-slate-800">
            Mobile number
          </label>
          <div className="flex">
            <span className="inline-flex h-11 items-center rounded-l-md border border-r-0 border-slate-300 bg-slate-100 px-3 text-slate-700">
              +91
            </span>
            <input
              id="booking-phone"
              type="tel"
              inputMode="tel"
              autoComplete="tel-national"
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
              placeholder="98765 43210"
              required
              maxLength={20}
              aria-invalid={fields.phone ? true : undefined}
              aria-describedby={fields.phone ? 'booking-phone-error' : 'booking-phone-hint'}
              className={inputClass + ' rounded-l-none'}
            />
          </div>
          <p id="booking-phone-hint" className="mt-1 text-xs text-slate-600">
            An Indian mobile number. We send a one-time code to it.
          </p>
          {fields.phone && <ErrorText id="booking-phone-error">{fields.phone}</ErrorText>}
        </div>
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-800">Send the code by</legend>
          <div className="flex gap-4">
            {(['whatsapp', 'sms'] as const).map((c) => (
              <label key={c} className="flex items-center gap-2 text-slate-900">
                <input
                  type="radio"
                  name="channel"
                  value={c}
                  checked={channel === c}
                  onChange={() => setChannel(c)}
                  className="h-4 w-4 accent-brand-700"
                />
                {c === 'whatsapp' ? 'WhatsApp' : 'SMS'}
              </label>
            ))}
          </div>
        </fieldset>
        {formError && <ErrorText>{formError}</ErrorText>}
        <div className="flex flex-wrap gap-2">
          <button type="submit" className={primaryButton} disabled={hold.isPending}>
            {hold.isPending ? 'Sending the code…' : 'Send code'}
          </button>
          <button type="button" className={secondaryButton} onClick={onBack}>
            Change time
          </button>
        </div>
      </form>
    </StepCard>
  )
}
