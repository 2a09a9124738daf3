import { PhoneIncoming } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { useUser } from '@/client/lib/current-user'
import { useSimulateIncoming } from './api'
import { unknownMobile } from './incoming-format'
import { showIncoming } from './incoming-store'

/**
 * The Sandbox page's "Simulate an incoming call" (issue 41): without a voice provider, a number
 * calls the hospital through the same path as the providers' webhooks: its lead is found or
 * made (source "Phone call"), the ring group's screens pop up, and after a few seconds the call
 * is answered or missed. Admins and receptionists only (the server refuses others too).
 */
export function SimulateIncomingCard() {
  const user = useUser().data
  const [phone, setPhone] = useState(() => unknownMobile())
  const [outcome, setOutcome] = useState<'answered' | 'missed'>('missed')
  const simulate = useSimulateIncoming()
  if (!user || (user.role !== 'admin' && user.role !== 'receptionist')) return null

  const error = simulate.error instanceof ApiError ? simulate.error : null
  const phoneError = error?.fieldErrors.phone
  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    simulate.mutate(
      { phone, outcome },
      {
        onSuccess: (card) => {
          if (card.ringUserIds.includes(user.id)) showIncoming(card.id)
          setPhone(unknownMobile())
        },
      },
    )
  }
  return (
    <Card>
      <CardContent className="space-y-3 p-4">
        <h2 className="flex items-center gap-2 text-base font-semibold">
          <PhoneIncoming className="size-4 shrink-0 text-brand-700" aria-hidden="true" />
          Simulate an incoming call
        </h2>
        <p className="text-sm text-slate-600">
          A number calls the hospital: an unknown one becomes a new lead (source “Phone call”), and
          the staff it rings see a pop-up. Nobody is really called.
        </p>
        <form className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end" onSubmit={onSubmit}>
          <Field id="incoming-phone" label="Caller’s number" error={phoneError}>
            <Input
              id="incoming-phone"
              inputMode="tel"
              autoComplete="off"
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
              aria-invalid={phoneError ? true : undefined}
              aria-describedby={phoneError ? 'incoming-phone-error' : undefined}
            />
          </Field>
          <Field id="incoming-outcome" label="The call is">
            <NativeSelect
              id="incoming-outcome"
              value={outcome}
              onChange={(e) => setOutcome(e.target.value === 'answered' ? 'answered' : 'missed')}
            >
              <option value="missed">Missed</option>
              <option value="answered">Answered</option>
            </NativeSelect>
          </Field>
          <Button type="submit" disabled={simulate.isPending}>
            {simulate.isPending ? 'Calling…' : 'Simulate call'}
          </Button>
        </form>
        {error && !phoneError ? (
          <p role="alert" className="text-sm text-red-700">
            {error.serverMessage}
          </p>
        ) : simulate.isError && !error ? (
          <p role="alert" className="text-sm text-red-700">
            The call could not be simulated; try again.
          </p>
        ) : simulate.data ? (
          <p role="status" className="text-sm text-slate-700">
            {simulate.data.name} is calling ({simulate.data.newLead ? 'new lead' : 'known number'}
            ); the call will be {simulate.variables?.outcome ?? 'missed'} in a few seconds.
          </p>
        ) : null}
      </CardContent>
    </Card>
  )
}
