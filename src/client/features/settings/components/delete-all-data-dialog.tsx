import { type FormEvent, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { useDeleteAllData } from '../api/data-export'

const normalised = (name: string) => name.trim().replace(/\s+/g, ' ')
const count = new Intl.NumberFormat('en-IN')

/**
 * Delete All Data (admins): says what goes and what stays, and deletes only once the hospital's
 * exact name is typed and the password entered. The server checks both again.
 */
export function DeleteAllDataDialog({
  hospitalName,
  open,
  onOpenChange,
}: {
  hospitalName: string
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const [typed, setTyped] = useState('')
  const [password, setPassword] = useState('')
  const erase = useDeleteAllData()
  const matches = normalised(typed) === normalised(hospitalName)
  const apiError = erase.error instanceof ApiError ? erase.error : null
  const fieldErrors = apiError?.fieldErrors ?? {}
  const nameError = fieldErrors.confirmName
  const passwordError = fieldErrors.password
  const otherError =
    erase.error && !nameError && !passwordError
      ? (apiError?.serverMessage ?? 'Could not delete the data. Try again.')
      : undefined
  const close = (next: boolean) => {
    if (!next) {
      setTyped('')
      setPassword('')
      erase.reset()
    }
    onOpenChange(next)
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!matches || !password) return
    erase.mutate(
      { confirmName: typed, password },
      {
        onSuccess: (result) => {
          toast.success(
            'All data deleted',
            `${count.format(result.total)} records were erased. Your team and settings stay.`,
          )
          close(false)
        },
      },
    )
  }
  return (
    <Dialog open={open} onOpenChange={close} title="Delete all data?">
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        <div className="space-y-2 text-sm text-slate-700">
          <p className="font-medium text-red-700">This cannot be undone. Export your data first.</p>
          <ul className="list-disc space-y-1 pl-5">
            <li>
              Erased: patients, leads, messages, appointments, invoices and payments, services,
              templates, reminders, bookings, invitations and the integrations’ settings.
            </li>
            <li>
              Kept: your team’s accounts, the hospital itself, its audit trail, its security
              settings, opt-outs from messaging, and the patient and invoice number sequences (a
              number is never issued twice).
            </li>
            <li>The deletion is recorded with your name in the platform’s audit log.</li>
          </ul>
        </div>
        <Field
          id="delete-all-name"
          label={`Type the hospital’s name (${hospitalName}) to confirm`}
          error={nameError}
        >
          <Input
            id="delete-all-name"
            value={typed}
            autoComplete="off"
            onChange={(e) => setTyped(e.target.value)}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? 'delete-all-name-error' : undefined}
          />
        </Field>
        <Field id="delete-all-password" label="Your password" error={passwordError}>
          <Input
            id="delete-all-password"
            type="password"
            value={password}
            autoComplete="current-password"
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={passwordError ? true : undefined}
            aria-describedby={passwordError ? 'delete-all-password-error' : undefined}
          />
        </Field>
        {otherError ? (
          <p role="alert" className="text-sm text-red-700">
            {otherError}
          </p>
        ) : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="destructive"
            disabled={!matches || !password}
            loading={erase.isPending}
            loadingText="Deleting…"
          >
            Delete all data
          </Button>
        </div>
      </form>
    </Dialog>
  )
}
