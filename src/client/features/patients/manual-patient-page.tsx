import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { ConfirmDialog } from '@/client/components/ui/confirm-dialog'
import { ApiError } from '@/client/lib/api-client'
import { useCan } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { useCreatePatient } from './api/create-patient'
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

  const onValid = form.handleSubmit(
    async (values) => {
      try {
        const created = await create.mutateAsync(createPayload(values))
        toast.success(
          'Patient Added Successfully!',
          `${created.firstName} ${created.lastName}`.trim() + ' has been added to the system.',
        )
        form.reset(emptyPatientForm)
      } catch (error) {
        showServerErrors(error)
        toast.error(
          'Error',
          error instanceof ApiError && error.status === 409
            ? error.serverMessage
            : 'Failed to add patient. Please check the information and try again.',
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
