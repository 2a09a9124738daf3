import { BadgeCheck, CircleAlert } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiError } from '@/client/lib/api-client'
import { useCan } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { formatDate } from '@/shared/dates'
import { formatPhone } from '@/shared/phone-format'
import { type MyPhone, useMyPhone, useSaveMyPhone } from './api/my-phone'

function PhoneStatus({ mine }: { mine: MyPhone }) {
  if (!mine.phone)
    return (
      <p className="text-sm text-slate-700">
        No phone yet: add your mobile number before you place calls.
      </p>
    )
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm text-slate-800">
      <span className="font-medium">{formatPhone(mine.phone)}</span>
      {mine.verified ? (
        <span className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800">
          <BadgeCheck className="size-3" aria-hidden="true" />
          Verified{mine.verifiedAt ? ` on ${formatDate(mine.verifiedAt)}` : ''}
        </span>
      ) : (
        <span className="inline-flex items-center gap-1 rounded-full bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900">
          <CircleAlert className="size-3" aria-hidden="true" />
          Not verified: save it again to retry the test call
        </span>
      )}
    </p>
  )
}

function MyPhoneForm({ mine }: { mine: MyPhone }) {
  const [phone, setPhone] = useState(mine.phone ? formatPhone(mine.phone) : '')
  const [error, setError] = useState<string | null>(null)
  const save = useSaveMyPhone()

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setError(null)
    try {
      const saved = await save.mutateAsync(phone.trim())
      toast.success(
        'Phone verified',
        `A test call was placed to ${saved.phone ? formatPhone(saved.phone) : 'your phone'}.`,
      )
    } catch (err) {
      setError(
        err instanceof ApiError
          ? (err.fieldErrors.phone ?? err.serverMessage)
          : 'Your phone could not be saved. Check your connection and try again.',
      )
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="min-w-0 space-y-3">
      <Field
        id="my-phone"
        label="Your mobile number"
        error={error ?? undefined}
        hint="Saving rings this number once with a short test call to verify it."
      >
        <Input
          id="my-phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder="98765 43210"
          value={phone}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'my-phone-error' : undefined}
          onChange={(e) => setPhone(e.target.value)}
        />
      </Field>
      <Button
        type="submit"
        loading={save.isPending}
        loadingText="Calling to verify..."
        disabled={!phone.trim()}
      >
        {mine.phone ? 'Change and verify' : 'Save and verify'}
      </Button>
    </form>
  )
}

/**
 * Settings → Security: "My phone for calls" (issue 41), for staff who may place calls
 * (calls:make; not viewers). Click-to-call rings this phone first, then the patient, who sees
 * the hospital's number, never this one.
 */
export function MyPhoneCard() {
  const canCall = useCan('calls:make')
  const query = useMyPhone(canCall)
  if (!canCall) return null
  return (
    <Card>
      <CardHeader>
        <CardTitle>My phone for calls</CardTitle>
        <p className="text-sm text-slate-600">
          When you press Call, your phone rings first and then the patient is connected. They see
          the hospital’s number, never yours.
        </p>
      </CardHeader>
      <CardContent className="space-y-4">
        {query.isPending ? (
          <div role="status" className="space-y-2">
            <span className="sr-only">Loading your phone</span>
            <Skeleton className="h-6 w-48" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : query.isError ? (
          <div role="alert" className="space-y-2 text-sm text-red-700">
            <p>Failed to load your phone for calls.</p>
            <Button variant="outline" onClick={() => void query.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <>
            <PhoneStatus mine={query.data} />
            <MyPhoneForm mine={query.data} />
          </>
        )}
      </CardContent>
    </Card>
  )
}
