import { Copy, ExternalLink } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import type { BookingSettings } from '@/shared/schemas/hospital-settings'
import { useBookingSettings, useSaveBookingSettings } from '../api/booking-settings'
import type { BookingPageSaver } from './settings-model'

function toggled(list: string[], id: string, on: boolean): string[] {
  return on ? [...list, id] : list.filter((x) => x !== id)
}

function PublicLink({ url }: { url: string }) {
  const full = `${window.location.origin}${url}`
  async function copy() {
    try {
      await navigator.clipboard.writeText(full)
      toast.success('Link copied', full)
    } catch {
      toast.error('Could not copy the link', 'Select it and copy it by hand.')
    }
  }
  return (
    <div className="space-y-1.5">
      <p className="text-sm font-medium text-slate-800" id="booking-link-label">
        Public link
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code
          aria-labelledby="booking-link-label"
          className="min-w-0 rounded bg-slate-100 px-2 py-1 text-sm [overflow-wrap:anywhere]"
        >
          {full}
        </code>
        <Button type="button" variant="outline" size="sm" onClick={() => void copy()}>
          <Copy className="size-4" aria-hidden="true" />
          Copy link
        </Button>
        <a
          href={url}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center gap-1 text-sm text-brand-700 underline"
        >
          <ExternalLink className="size-4" aria-hidden="true" />
          Open the booking page
        </a>
      </div>
    </div>
  )
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x))

function BookingForm({
  saved,
  canEdit,
  saver,
}: {
  saved: BookingSettings
  canEdit: boolean
  saver: BookingPageSaver
}) {
  const [enabled, setEnabled] = useState(saved.enabled)
  const [doctorIds, setDoctorIds] = useState(saved.doctorIds)
  const bookable = saved.services.filter((s) => s.bookable).map((s) => s.id)
  const [serviceIds, setServiceIds] = useState(bookable)
  const [error, setError] = useState<string | null>(null)
  const save = useSaveBookingSettings()
  const changed =
    enabled !== saved.enabled ||
    !sameSet(doctorIds, saved.doctorIds) ||
    !sameSet(serviceIds, bookable)
  async function submit(): Promise<boolean> {
    if (!changed) return true
    setError(null)
    try {
      await save.mutateAsync({ enabled, doctorIds, bookableServiceIds: serviceIds })
      return true
    } catch (err) {
      const message = err instanceof ApiError ? err.serverMessage : 'Please try again.'
      setError(err instanceof ApiError ? (Object.values(err.fieldErrors)[0] ?? message) : message)
      toast.error('Failed to save the booking page', message)
      return false
    }
  }
  useEffect(() => {
    saver.register(submit)
    return () => saver.register(null)
  })
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
      noValidate
      className="space-y-4"
    >
      <PublicLink url={saved.url} />
      <fieldset disabled={!canEdit} className="min-w-0 space-y-4">
        <label className="flex items-start gap-3 text-sm">
          <input
            type="checkbox"
            role="switch"
            className="mt-0.5 size-4"
            checked={enabled}
            onChange={(e) => setEnabled(e.target.checked)}
          />
          <span>
            <span className="font-medium">Online booking</span>
            <span className="block text-slate-600">
              {enabled ? 'On: patients can book from the link.' : 'Off: the link shows nothing.'}
            </span>
          </span>
        </label>
        <fieldset className="min-w-0 space-y-2">
          <legend className="text-sm font-medium text-slate-800">Doctors offered</legend>
          {saved.doctors.length === 0 ? (
            <p className="text-sm text-slate-600">No doctors in this hospital yet.</p>
          ) : (
            <>
              <p className="text-xs text-slate-500">None ticked: every doctor is offered.</p>
              {saved.doctors.map((d) => (
                <label key={d.id} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={doctorIds.includes(d.id)}
                    onChange={(e) => setDoctorIds(toggled(doctorIds, d.id, e.target.checked))}
                  />
                  {d.name}
                </label>
              ))}
            </>
          )}
        </fieldset>
        <fieldset className="min-w-0 space-y-2">
          <legend className="text-sm font-medium text-slate-800">Services offered</legend>
          {saved.services.length === 0 ? (
            <p className="text-sm text-slate-600">
              No services in the catalogue yet: add them under Billing first.
            </p>
          ) : (
            <div className="grid gap-1 sm:grid-cols-2">
              {saved.services.map((s) => (
                <label key={s.id} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={serviceIds.includes(s.id)}
                    onChange={(e) => setServiceIds(toggled(serviceIds, s.id, e.target.checked))}
                  />
                  {s.name}
                </label>
              ))}
            </div>
          )}
        </fieldset>
      </fieldset>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </form>
  )
}

/**
 * The booking page card: on or off, its doctors and services, and the public link to share.
 * Saved by the page's Save Changes (through saver), with the General tab's other fields.
 */
export function BookingPageCard({ canEdit, saver }: { canEdit: boolean; saver: BookingPageSaver }) {
  const query = useBookingSettings()
  return (
    <Card>
      <CardHeader>
        <CardTitle>Booking page</CardTitle>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <div className="space-y-2" aria-label="Loading the booking page settings">
            <Skeleton className="h-8 w-full" />
            <Skeleton className="h-8 w-full" />
          </div>
        ) : query.isError ? (
          <div role="alert" className="space-y-2 text-sm text-red-700">
            <p>Failed to load the booking page settings.</p>
            <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <BookingForm
            key={query.dataUpdatedAt}
            saved={query.data}
            canEdit={canEdit}
            saver={saver}
          />
        )}
      </CardContent>
    </Card>
  )
}
