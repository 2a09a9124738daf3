import { useCallback, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { ConfirmDialog } from '@/client/components/ui/confirm-dialog'
import { useCan } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { normalizeMobilePhone } from '@/shared/phone'
import { plural } from '@/shared/plural'
import { useCreatePatient } from './api/create-patient'
import { getPhoneMatchesQueryOptions } from './api/get-phone-matches'
import { DuplicatePhoneWarning } from './components/duplicate-phone-warning'
import { PatientDetailsDialog, type Viewing } from './components/patient-details-dialog'
import { PatientFormFields } from './components/patient-form-fields'
import {
  createPayload,
  emptyPatientForm,
  isFormEmpty,
  REQUIRED_FIELDS_MESSAGE,
} from './patient-form'
import { usePatientForm } from './use-patient-form'

/** /manual-patient: add a patient by hand (roles that may add patients). */
export function ManualPatientPage() {
  const canWrite = useCan('patients:write')
  if (!canWrite) {
    return (
      <div className="space-y-6">
        <h1 className="text-2xl font-bold">Manual Patient Entry</h1>
        <Card>
          <CardContent className="p-6 text-slate-700">
            Your role can view patients but not add them. Ask your hospital administrator if you
            need to add patients.
          </CardContent>
        </Card>
      </div>
    )
  }
  return <ManualPatientForm />
}

function ManualPatientForm() {
  const { form, showServerErrors } = usePatientForm()
  const create = useCreatePatient()
  const [confirmingClear, setConfirmingClear] = useState(false)
  const [viewing, setViewing] = useState<Viewing | null>(null)
  const clear = () => form.reset(emptyPatientForm)
  const queryClient = useQueryClient()
  // The number whose duplicate warning the person has seen (under the field, or on a submit).
  const [warned, setWarned] = useState<string | null>(null)
  const onShown = useCallback((phone: string | null) => {
    if (phone) setWarned(phone)
  }, [])

  /**
   * Issue 40 item 11: the warning under Phone waits for a pause in typing, so a form filled and
   * submitted at once is checked here too. A number that belongs to other patients stops the
   * first submit with the warning; saving again saves (families share phones).
   */
  async function warnsOfDuplicate(typed: string): Promise<boolean> {
    const phone = normalizeMobilePhone(typed)
    if (!phone || warned === phone) return false
    const matches = await queryClient
      .fetchQuery(getPhoneMatchesQueryOptions(phone))
      .catch(() => null)
    if (!matches || matches.count === 0) return false
    setWarned(phone)
    toast.error(
      'Possible duplicate',
      `This number belongs to ${plural(matches.count, 'patient')}. Check it is not the same person, then click Add Patient to System again to save.`,
    )
    form.setFocus('phone')
    return true
  }

  const onValid = form.handleSubmit(
    async (values) => {
      if (await warnsOfDuplicate(values.phone)) return
      try {
        const created = await create.mutateAsync(createPayload(values))
        toast.success(
          'Patient Added Successfully!',
          `${created.firstName} ${created.lastName}`.trim() + ' has been added to the system.',
        )
        form.reset(emptyPatientForm)
        setWarned(null)
      } catch (error) {
        showServerErrors(error)
        toast.failed(
          'Error',
          error,
          'Failed to add patient. Please check the information and try again.',
        )
      }
    },
    () => {
      const { name, phone } = form.getValues()
      if (!name.trim() || !phone.trim()) toast.error('Validation Error', REQUIRED_FIELDS_MESSAGE)
      else toast.error('Validation Error', 'Please correct the highlighted fields.')
    },
  )

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Manual Patient Entry</h1>
        <p className="text-slate-600">
          Add a patient who called or walked in. Fields marked * are required.
        </p>
      </div>
      <form onSubmit={(e) => void onValid(e)} noValidate className="space-y-6">
        <PatientFormFields
          form={form}
          idPrefix="manual"
          phoneNotice={
            <DuplicatePhoneWarning
              control={form.control}
              onOpenPatient={(id) => setViewing({ id })}
              onShown={onShown}
            />
          }
        />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button
            type="button"
            variant="outline"
            onClick={() => (isFormEmpty(form.getValues()) ? clear() : setConfirmingClear(true))}
            disabled={create.isPending}
          >
            Clear Form
          </Button>
          <Button type="submit" loading={create.isPending} loadingText="Adding Patient...">
            Add Patient to System
          </Button>
        </div>
      </form>
      <ConfirmDialog
        open={confirmingClear}
        onOpenChange={setConfirmingClear}
        title="Discard changes?"
        description="Everything typed in this form will be cleared."
        cancelLabel="Keep editing"
        confirmLabel="Discard"
        destructive
        onConfirm={clear}
      />
      <PatientDetailsDialog viewing={viewing} onClose={() => setViewing(null)} />
    </div>
  )
}
