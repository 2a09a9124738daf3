import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect, Textarea } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import {
  createHospitalInput,
  HOSPITAL_DEFAULTS,
  hospitalTypeLabels,
  hospitalTypes,
  platformToasts,
} from '@/shared/schemas/platform'
import { useCreateHospital } from '../api/hospitals'
import { type FieldErrors, numberOrAbsent, serverMessage, zodFieldErrors } from './form-issues'

const empty = {
  name: '',
  email: '',
  phone: '',
  hospitalType: HOSPITAL_DEFAULTS.hospitalType as string,
  maxUsers: String(HOSPITAL_DEFAULTS.maxUsers),
  bedCapacity: '',
  address: '',
  adminEmail: '',
  adminName: '',
}

/**
 * Add Hospital (spec sections 2, 5 and 9): name, email, phone, type, max users, bed capacity
 * and address, plus the first admin's email (the hospital's email when left empty). The price
 * per user and currency take their defaults; the hospital starts its plan's free trial.
 */
export function AddHospitalDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form, setForm] = useState(empty)
  const [errors, setErrors] = useState<FieldErrors>({})
  const create = useCreateHospital()
  const set = (key: keyof typeof empty) => (value: string) =>
    setForm((f) => ({ ...f, [key]: value }))

  function close() {
    setForm(empty)
    setErrors({})
    onClose()
  }

  function submit(e: React.FormEvent) {
    e.preventDefault()
    const body = {
      name: form.name,
      email: form.email,
      phone: form.phone,
      hospitalType: form.hospitalType,
      maxUsers: numberOrAbsent(form.maxUsers) ?? 0,
      bedCapacity: numberOrAbsent(form.bedCapacity) ?? null,
      address: form.address,
      adminEmail: form.adminEmail,
      adminName: form.adminName,
    }
    const parsed = createHospitalInput.safeParse(body)
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error))
      return
    }
    setErrors({})
    create.mutate(body as Parameters<typeof create.mutate>[0], {
      onSuccess: (h) => {
        toast.success(
          platformToasts.hospitalCreated,
          h.invitation
            ? `${h.name} starts its free trial. An invitation went to ${h.invitation.email}.`
            : `${h.name} starts its free trial.`,
        )
        close()
      },
      onError: (error) => {
        if (error instanceof ApiError) setErrors(error.fieldErrors)
        toast.error(platformToasts.hospitalFailed, serverMessage(error))
      },
    })
  }

  const input = (
    key: keyof typeof empty,
    label: string,
    props: React.InputHTMLAttributes<HTMLInputElement> = {},
    required = false,
  ) => (
    <Field id={`hospital-${key}`} label={label} required={required} error={errors[key]}>
      <Input
        id={`hospital-${key}`}
        value={form[key]}
        onChange={(e) => set(key)(e.target.value)}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={errors[key] ? `hospital-${key}-error` : undefined}
        {...props}
      />
    </Field>
  )

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && close()}
      title="Add Hospital"
      description="The hospital starts a free trial with six onboarding tasks; its first admin is invited by email."
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          {input('name', 'Hospital name', { autoComplete: 'organization' }, true)}
          {input('email', 'Email', { type: 'email', autoComplete: 'email' }, true)}
          {input('phone', 'Phone', { type: 'tel', autoComplete: 'tel' })}
          <Field id="hospital-hospitalType" label="Type" error={errors.hospitalType}>
            <NativeSelect
              id="hospital-hospitalType"
              value={form.hospitalType}
              onChange={(e) => set('hospitalType')(e.target.value)}
            >
              {hospitalTypes.map((t) => (
                <option key={t} value={t}>
                  {hospitalTypeLabels[t]}
                </option>
              ))}
            </NativeSelect>
          </Field>
          {input('maxUsers', 'Max users', { type: 'number', min: 1, inputMode: 'numeric' }, true)}
          {input('bedCapacity', 'Bed capacity', { type: 'number', min: 0, inputMode: 'numeric' })}
        </div>
        <Field id="hospital-address" label="Address" error={errors.address}>
          <Textarea
            id="hospital-address"
            value={form.address}
            onChange={(e) => set('address')(e.target.value)}
          />
        </Field>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          {input('adminName', 'First admin’s name', { autoComplete: 'off' })}
          {input('adminEmail', 'First admin’s email', {
            type: 'email',
            placeholder: 'Same as the hospital’s email',
          })}
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="outline" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending} loadingText="Adding">
            Add Hospital
          </Button>
        </div>
      </form>
    </Dialog>
  )
}
