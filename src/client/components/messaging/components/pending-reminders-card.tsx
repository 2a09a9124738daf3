import { Send } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { Skeleton } from '@/client/components/ui/skeleton'
import { useCan } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { usePendingReminders } from '../api/get-reminders'
import { useSendReminder } from '../api/send-reminder'
import type { Reminder } from '../types'

const typeLabels: Record<string, string> = {
  follow_up: 'Follow-up',
  appointment: 'Appointment',
  payment: 'Payment',
  custom: 'Reminder',
}

function ReminderRow({ r, canSend }: { r: Reminder; canSend: boolean }) {
  const send = useSendReminder()
  const [done, setDone] = useState(false)
  async function run() {
    try {
      await send.mutateAsync(r.id)
      setDone(true)
      toast.success('Reminder sent', r.name ? `To ${r.name}.` : undefined)
    } catch (error) {
      // A 409's reason (already sent, SMS off, outside the window) is what the person reads.
      toast.failed('Reminder not sent', error, 'Failed to send the reminder. Please try again.')
    }
  }
  return (
    <li className="flex flex-col gap-2 rounded-md border border-slate-200 p-3 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold">
          {typeLabels[r.type] ?? r.type}
          {r.name ? <span className="font-normal text-slate-600"> · {r.name}</span> : null}
        </p>
        <p className="text-sm text-slate-700">{r.message}</p>
      </div>
      {canSend ? (
        <Button
          size="sm"
          variant="outline"
          onClick={() => void run()}
          loading={send.isPending}
          loadingText="Sending..."
          disabled={done}
          aria-label={`Send Now: ${r.message}`}
        >
          <Send aria-hidden="true" /> {done ? 'Sent' : 'Send Now'}
        </Button>
      ) : null}
    </li>
  )
}

/** Spec: Pending Reminders, up to 5, 'N reminders waiting to be sent', each with Send Now. */
export function PendingRemindersCard() {
  const reminders = usePendingReminders()
  const canSend = useCan('leads:write')
  const total = reminders.data?.total ?? 0
  return (
    <Card>
      <CardHeader>
        <CardTitle>Pending Reminders</CardTitle>
        {reminders.data ? (
          <p className="text-sm text-slate-600">
            {total} {total === 1 ? 'reminder' : 'reminders'} waiting to be sent
          </p>
        ) : null}
      </CardHeader>
      <CardContent>
        {reminders.isPending ? (
          <div className="space-y-2" aria-label="Loading reminders">
            <Skeleton className="h-12 w-full" />
            <Skeleton className="h-12 w-full" />
          </div>
        ) : reminders.isError ? (
          <div role="alert" className="space-y-2 text-sm text-red-700">
            <p>Failed to fetch reminders</p>
            <Button variant="outline" size="sm" onClick={() => void reminders.refetch()}>
              Try again
            </Button>
          </div>
        ) : reminders.data.data.length === 0 ? (
          <p className="text-sm text-slate-600">No pending reminders</p>
        ) : (
          <ul className="space-y-2" aria-label="Pending reminders">
            {reminders.data.data.slice(0, 5).map((r) => (
              <ReminderRow key={r.id} r={r} canSend={canSend} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
