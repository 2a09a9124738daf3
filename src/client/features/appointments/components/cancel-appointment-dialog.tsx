import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Textarea } from '@/client/components/ui/input'

/** "Cancel this appointment?" with an optional reason (kept on the appointment). */
export function CancelAppointmentDialog({
  open,
  onOpenChange,
  who,
  busy,
  onConfirm,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** 'Aarav Sharma on Nov 26, 2026 at 10:00 AM' */
  who: string
  busy: boolean
  onConfirm: (reason: string) => void
}) {
  const [reason, setReason] = useState('')
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Cancel this appointment?"
      description={`${who}. The slot is freed and its reminders are not sent.`}
      className="max-w-md"
    >
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault()
          onConfirm(reason.trim())
        }}
      >
        <Field id="cancel-reason" label="Reason (optional)">
          <Textarea
            id="cancel-reason"
            value={reason}
            maxLength={500}
            rows={2}
            onChange={(e) => setReason(e.target.value)}
          />
        </Field>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            Keep appointment
          </Button>
          <Button type="submit" variant="destructive" loading={busy} loadingText="Cancelling...">
            Cancel appointment
          </Button>
        </div>
      </form>
    </Dialog>
  )
}
