import { useEffect, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect } from '@/client/components/ui/input'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { plans } from '@/shared/plans'
import {
  canMoveTo,
  type HospitalDetail,
  platformToasts,
  subscriptionStatuses,
  subscriptionStatusLabels,
  updateHospitalInput,
} from '@/shared/schemas/platform'
import { useHospital, useUpdateHospital } from '../api/hospitals'
import { type FieldErrors, numberOrAbsent, serverMessage, zodFieldErrors } from './form-issues'

interface Form {
  plan: string
  maxUsers: string
  /** Rupees, as typed. */
  price: string
  subscriptionStatus: string
  trialEndsAt: string
}

function formOf(h: HospitalDetail): Form {
  return {
    plan: h.plan,
    maxUsers: String(h.maxUsers),
    price: String(h.pricePerUser / 100),
    subscriptionStatus: h.subscriptionStatus,
    trialEndsAt: h.trialEndsAt ?? '',
  }
}

/** Edit: plan, max users, price per user, subscription status (allowed moves only), trial end. */
export function EditHospitalDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const query = useHospital(id)
  const h = query.data
  return (
    <Dialog
      open={id !== null}
      onOpenChange={(open) => !open && onClose()}
      title={h ? `Edit ${h.name}` : 'Edit hospital'}
    >
      {h && id ? (
        <EditForm key={h.id} hospital={h} onClose={onClose} />
      ) : (
        <Skeleton className="h-64 w-full" />
      )}
    </Dialog>
  )
}

function EditForm({ hospital, onClose }: { hospital: HospitalDetail; onClose: () => void }) {
  const [form, setForm] = useState<Form>(() => formOf(hospital))
  const [errors, setErrors] = useState<FieldErrors>({})
  const update = useUpdateHospital(hospital.id)
  useEffect(() => setForm(formOf(hospital)), [hospital])
  const set = (key: keyof Form) => (value: string) => setForm((f) => ({ ...f, [key]: value }))

  function submit(e: React.FormEvent) {
    e.preventDefault()
    const rupees = numberOrAbsent(form.price)
    const body = {
      plan: form.plan,
      maxUsers: numberOrAbsent(form.maxUsers) ?? 0,
      pricePerUser: rupees === undefined ? -1 : Math.round(rupees * 100),
      subscriptionStatus: form.subscriptionStatus,
      trialEndsAt: form.trialEndsAt === '' ? null : form.trialEndsAt,
    }
    const parsed = updateHospitalInput.safeParse(body)
    if (!parsed.success) {
      const found = zodFieldErrors(parsed.error)
      setErrors({ ...found, price: found.pricePerUser ?? '' })
      return
    }
    setErrors({})
    update.mutate(body as Parameters<typeof update.mutate>[0], {
      onSuccess: () => {
        toast.success(platformToasts.hospitalUpdated)
        onClose()
      },
      onError: (error) => {
        if (error instanceof ApiError) setErrors(error.fieldErrors)
        toast.error(platformToasts.hospitalUpdateFailed, serverMessage(error))
      },
    })
  }

  const current = hospital.subscriptionStatus
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field id="edit-plan" label="Plan" error={errors.plan}>
          <NativeSelect
            id="edit-plan"
            value={form.plan}
            onChange={(e) => set('plan')(e.target.value)}
          >
            {plans.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field
          id="edit-status"
          label="Subscription status"
          error={errors.subscriptionStatus}
          hint="Trial → Active → Past due → Cancelled; back to Active on payment."
        >
          <NativeSelect
            id="edit-status"
            value={form.subscriptionStatus}
            onChange={(e) => set('subscriptionStatus')(e.target.value)}
          >
            {subscriptionStatuses
              .filter((s) => canMoveTo(current, s))
              .map((s) => (
                <option key={s} value={s}>
                  {subscriptionStatusLabels[s]}
                </option>
              ))}
          </NativeSelect>
        </Field>
        <Field id="edit-maxUsers" label="Max users" error={errors.maxUsers}>
          <Input
            id="edit-maxUsers"
            type="number"
            min={1}
            inputMode="numeric"
            value={form.maxUsers}
            onChange={(e) => set('maxUsers')(e.target.value)}
            aria-invalid={errors.maxUsers ? true : undefined}
          />
        </Field>
        <Field id="edit-price" label="Price per user (₹ a month)" error={errors.price}>
          <Input
            id="edit-price"
            type="number"
            min={0}
            step="0.01"
            inputMode="decimal"
            value={form.price}
            onChange={(e) => set('price')(e.target.value)}
            aria-invalid={errors.price ? true : undefined}
          />
        </Field>
        <Field id="edit-trial" label="Trial end date" error={errors.trialEndsAt}>
          <Input
            id="edit-trial"
            type="date"
            value={form.trialEndsAt}
            onChange={(e) => set('trialEndsAt')(e.target.value)}
          />
        </Field>
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" loading={update.isPending} loadingText="Saving">
          Save changes
        </Button>
      </div>
    </form>
  )
}
