import { type FormEvent, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import type { Patient } from '@/shared/schemas/patients'
import { useErasePatient } from '../api/erase-patient'

const normalised = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase()

/**
 * 'Erase patient' (admins; DPDP Act 2023): says what happens, and erases only once the
 * patient's name is typed again. The server checks the name and the role too.
 */
export function ErasePatientDialog({
  patient,
  open,
  onOpenChange,
}: {
  patient: Patient
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const [typed, setTyped] = useState('')
  const erase = useErasePatient()
  const matches = normalised(typed) === normalised(patient.name)
  const error = erase.error instanceof ApiError ? erase.error.serverMessage : undefined
  const close = (next: boolean) => {
    if (!next) {
      setTyped('')
      erase.reset()
    }
    onOpenChange(next)
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!matches) return
    erase.mutate(
      { id: patient.id, confirmName: typed },
      {
        onSuccess: () => {
          toast.success('Patient erased', 'Their personal data was removed; invoices are kept.')
          close(false)
        },
      },
    )
  }
  return (
    <Dialog open={open} onOpenChange={close} title={`Erase ${patient.name}?`}>
      <form onSubmit={onSubmit} className="space-y-4">
        <div className="space-y-2 text-sm text-slate-700">
          <p>This cannot be undone. Under India’s DPDP Act 2023:</p>
          <ul className="list-disc space-y-1 pl-5">
            <li>
              the name becomes ‘Erased patient’; phone, email, address and medical details are
              cleared;
            </li>
            <li>invoices are kept, as the law requires, with the name replaced;</li>
            <li>messaging consents are withdrawn and messages’ content is removed;</li>
            <li>appointments are kept without their notes.</li>
          </ul>
        </div>
        <Field
          id="erase-confirm-name"
          label={`Type the patient’s name (${patient.name}) to confirm`}
          error={error}
        >
          <Input
            id="erase-confirm-name"
            value={typed}
            autoComplete="off"
            onChange={(e) => setTyped(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'erase-confirm-name-error' : undefined}
          />
        </Field>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button type="submit" variant="destructive" disabled={!matches || erase.isPending}>
            {erase.isPending ? 'Erasing…' : 'Erase patient'}
          </Button>
        </div>
      </form>
    </Dialog>
  )
}
