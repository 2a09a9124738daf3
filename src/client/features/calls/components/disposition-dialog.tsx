import { useState } from 'react'
import { useHospitalSchedule } from '@/client/components/appointments/api/get-hospital-schedule'
import { Button } from '@/client/components/ui/button'
import { DateField } from '@/client/components/ui/date-field'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Input, Textarea } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import type { CallDisposition } from '@/shared/calls'
import type { Call } from '@/shared/schemas/calls'
import { useDisposition } from '../api/calls'
import {
  defaultCallBack,
  DISPOSITION_CHOICES,
  formatCallBack,
  type WallTime,
  wallTimeToInstant,
} from '../call-format'

/**
 * When a call has ended: how it went (issue 41). Six choices, an optional note, and for
 * "Call back at…" a date and time in the hospital's zone (tomorrow 11:00 unless changed), which
 * becomes the lead's follow-up. `onSaved` gets the saved call ("booked" opens the appointment
 * dialog next).
 */
export function DispositionDialog({
  call,
  name,
  open,
  onOpenChange,
  onSaved,
}: {
  call: Call
  name: string
  open: boolean
  onOpenChange: (open: boolean) => void
  onSaved: (call: Call) => void
}) {
  const { timeZone } = useHospitalSchedule()
  const save = useDisposition()
  const [choice, setChoice] = useState<CallDisposition | null>(call.disposition)
  const [note, setNote] = useState(call.dispositionNote ?? '')
  const [when, setWhen] = useState<WallTime>(() => defaultCallBack(new Date(), timeZone))
  const [errors, setErrors] = useState<Record<string, string>>({})

  async function submit() {
    const next: Record<string, string> = {}
    if (!choice) next.disposition = 'Choose how the call went'
    const callBackAt = choice === 'call_back' ? wallTimeToInstant(when, timeZone) : null
    if (choice === 'call_back' && !callBackAt) next.callBackAt = 'Choose a real date and time'
    setErrors(next)
    if (!choice || Object.keys(next).length) return
    try {
      const saved = await save.mutateAsync({
        id: call.id,
        body: {
          disposition: choice,
          note: note.trim() || null,
          ...(callBackAt ? { callBackAt } : {}),
        },
      })
      toast.success(
        'Call outcome saved',
        saved.callBackAt ? `Call back: ${formatCallBack(saved.callBackAt, timeZone)}` : undefined,
      )
      onSaved(saved)
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.fieldErrors.callBackAt) {
        setErrors({ callBackAt: error.fieldErrors.callBackAt })
        return
      }
      toast.failed('Outcome not saved', error, 'The outcome was not saved. Please try again.')
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`How did the call with ${name} go?`}
      description="Your choice goes on the contact's history; “Call back at” sets a follow-up."
      className="max-w-lg"
    >
      <form
        noValidate
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault()
          void submit()
        }}
      >
        <fieldset className="min-w-0 space-y-2" aria-describedby="call-outcome-error">
          <legend className="text-sm font-medium text-slate-800">
            Outcome<span className="text-red-600"> *</span>
          </legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {DISPOSITION_CHOICES.map((c) => (
              <label
                key={c.value}
                className="flex min-w-0 items-center gap-2 rounded-md border border-slate-200 p-2 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <input
                  type="radio"
                  name="disposition"
                  value={c.value}
                  checked={choice === c.value}
                  onChange={() => setChoice(c.value)}
                />
                <span className="min-w-0 [overflow-wrap:anywhere]">{c.label}</span>
              </label>
            ))}
          </div>
          {errors.disposition ? (
            <p id="call-outcome-error" role="alert" className="text-xs text-red-600">
              {errors.disposition}
            </p>
          ) : null}
        </fieldset>
        {choice === 'call_back' ? (
          <div className="grid gap-3 sm:grid-cols-2">
            <Field id="call-back-date" label="Call back on" required error={errors.callBackAt}>
              <DateField
                id="call-back-date"
                value={when.date}
                onChange={(date) => setWhen((w) => ({ ...w, date }))}
                aria-invalid={Boolean(errors.callBackAt)}
                aria-describedby={errors.callBackAt ? 'call-back-date-error' : undefined}
              />
            </Field>
            <Field id="call-back-time" label="Call back time" required hint={`Time in ${timeZone}`}>
              <Input
                id="call-back-time"
                type="time"
                value={when.time}
                onChange={(e) => setWhen((w) => ({ ...w, time: e.target.value }))}
              />
            </Field>
          </div>
        ) : null}
        <Field id="call-note" label="Note (optional)">
          <Textarea
            id="call-note"
            rows={3}
            maxLength={2000}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            placeholder="e.g. Asked about knee replacement costs; will discuss with family"
          />
        </Field>
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            Later
          </Button>
          <Button type="submit" loading={save.isPending} loadingText="Saving...">
            Save outcome
          </Button>
        </div>
      </form>
    </Dialog>
  )
}
