import { useMemo, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { ConfirmDialog } from '@/client/components/ui/confirm-dialog'
import { Dialog } from '@/client/components/ui/dialog'
import { toast } from '@/client/lib/toast'
import type { Patient } from '@/shared/schemas/patients'
import { useUpdatePatient } from '../api/update-patient'
import { editPayload, formFromPatient, REQUIRED_FIELDS_MESSAGE } from '../patient-form'
import { usePatientForm } from '../use-patient-form'
import { DuplicatePhoneWarning } from './duplicate-phone-warning'
import { PatientDetailsDialog, type Viewing } from './patient-details-dialog'
import { PatientFormFields } from './patient-form-fields'

function EditPatient({ patient, onClose }: { patient: Patient; onClose: () => void }) {
  const initial = useMemo(() => formFromPatient(patient), [patient])
  const { form, showServerErrors } = usePatientForm(initial)
  const update = useUpdatePatient()
  const [confirming, setConfirming] = useState(false)
  const [viewing, setViewing] = useState<Viewing | null>(null)

  const hasChanges = () => Object.keys(editPayload(form.getValues(), initial)).length > 0
  /** Esc, a click outside, the X and Cancel all come here: changes are not lost silently. */
  function requestClose() {
    if (update.isPending) return
    if (hasChanges()) setConfirming(true)
    else onClose()
  }

  const submit = form.handleSubmit(
    async (values) => {
      const input = editPayload(values, initial)
      if (Object.keys(input).length === 0) {
        toast.info('No changes to save')
        onClose()
        return
      }
      try {
        await update.mutateAsync({ id: patient.id, input })
        toast.success('Patient updated successfully')
        onClose()
      } catch (error) {
        showServerErrors(error)
        toast.failed(
          'Error',
          error,
          'Failed to update patient. Please check the information and try again.',
        )
      }
    },
    () => {
      const { name, phone } = form.getValues()
      toast.error(
        'Validation Error',
        !name.trim() || !phone.trim()
          ? REQUIRED_FIELDS_MESSAGE
          : 'Please correct the highlighted fields.',
      )
    },
  )

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && requestClose()}
      title={`Edit Patient: ${patient.name}`}
      className="max-w-3xl"
    >
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-5">
        <PatientFormFields
          form={form}
          idPrefix="edit"
          phoneNotice={
            <DuplicatePhoneWarning
              control={form.control}
              excludeId={patient.id}
              onOpenPatient={(id) => setViewing({ id })}
            />
          }
        />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button
            type="button"
            variant="outline"
            onClick={requestClose}
            disabled={update.isPending}
          >
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending} loadingText="Saving...">
            Save Changes
          </Button>
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Discard changes?"
        description="The changes you made to this patient have not been saved."
        cancelLabel="Keep editing"
        confirmLabel="Discard"
        destructive
        onConfirm={onClose}
      />
      <PatientDetailsDialog viewing={viewing} onClose={() => setViewing(null)} />
    </Dialog>
  )
}

/** 'Edit Patient: {name}': the patient form, saving only what changed. */
export function EditPatientDialog({
  patient,
  onClose,
}: {
  patient: Patient | null
  onClose: () => void
}) {
  if (!patient) return null
  return <EditPatient key={patient.id} patient={patient} onClose={onClose} />
}
