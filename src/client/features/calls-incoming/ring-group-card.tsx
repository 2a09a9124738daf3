import { type FormEvent, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { useStaff } from '@/client/features/leads/api/get-staff'
import { ApiError } from '@/client/lib/api-client'
import { useCan } from '@/client/lib/current-user'
import { useRingGroup, useSaveRingGroup } from './api'

/**
 * Who incoming calls ring (issue 41), for admins: tick staff in the order they should ring; none
 * ticked restores the default (receptionists with a verified phone, else admins). Only staff
 * with a verified phone (Settings → Security → My phone for calls) are actually dialled. Meant
 * for Settings → Integrations → Voice (mounted there by the settings screen).
 */
export function RingGroupCard() {
  const canManage = useCan('hospital:manage')
  if (!canManage) return null
  return <RingGroupEditor />
}

function RingGroupEditor() {
  const group = useRingGroup()
  const staff = useStaff()
  const save = useSaveRingGroup()
  const [chosen, setChosen] = useState<string[] | null>(null)
  const ticked = chosen ?? group.data?.configured ?? []
  const toggle = (id: string, on: boolean) =>
    setChosen(on ? [...ticked.filter((x) => x !== id), id] : ticked.filter((x) => x !== id))
  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    save.mutate(ticked, { onSuccess: () => setChosen(null) })
  }
  const error = save.error
  return (
    <Card>
      <CardContent className="space-y-3 p-4">
        <h2 className="text-base font-semibold">Incoming calls ring</h2>
        {group.isPending || staff.isPending ? (
          <>
            <p className="sr-only">Loading the ring group…</p>
            <Skeleton className="h-24 w-full" />
          </>
        ) : group.isError || staff.isError ? (
          <InlineLoadError
            message="Failed to load the ring group."
            onRetry={() => void Promise.all([group.refetch(), staff.refetch()])}
          />
        ) : (
          <form className="space-y-3" onSubmit={onSubmit}>
            <p className="text-sm text-slate-600">
              Rings now:{' '}
              {group.data.members.length
                ? group.data.members
                    .map((m) => `${m.name}${m.phoneVerified ? '' : ' (no verified phone)'}`)
                    .join(', ')
                : 'nobody'}
              . With nobody ticked, receptionists with a verified phone ring (else admins).
            </p>
            <fieldset className="space-y-1.5">
              <legend className="text-sm font-medium text-slate-800">Staff to ring</legend>
              {staff.data.map((s) => (
                <label key={s.id} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={ticked.includes(s.id)}
                    onChange={(e) => toggle(s.id, e.target.checked)}
                  />
                  <span className="[overflow-wrap:anywhere]">
                    {s.name} <span className="text-slate-600">({s.role})</span>
                  </span>
                </label>
              ))}
            </fieldset>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save ring group'}
            </Button>
            {error ? (
              <p role="alert" className="text-sm text-red-700">
                {error instanceof ApiError ? error.serverMessage : 'The ring group was not saved.'}
              </p>
            ) : save.isSuccess ? (
              <p role="status" className="text-sm text-slate-700">
                Ring group saved.
              </p>
            ) : null}
          </form>
        )}
      </CardContent>
    </Card>
  )
}
