import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { toast } from '@/client/lib/toast'
import type { Patient } from '@/shared/schemas/patients'
import { useUpdatePatient } from '../api/update-patient'
import { formFromPatient, REQUIRED_FIELDS_MESSAGE, toPayload } from '../patient-form'
import { usePatientForm } from '../use-patient-form'
import { PatientFormFields } from './patient-form-fields'

function EditForm({ patient, onClose }: { patient: Patient; onClose: () => void }) {
  const { form, showServerErrors } = usePatientForm(formFromPatient(patient))
  const update = useUpdatePatient()
  const submit = form.handleSubmit(
    async (values) => {
      try {
        await update.mutateAsync({ id: patient.id, input: toPayload(values, 'edit') })
        toast.success('Patient updated successfully')
        onClose()
      } catch (error) {
        showServerErrors(error)
        toast.error(
          'Error',
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
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-5">
      <PatientFormFields register={form.register} errors={form.formState.errors} idPrefix="edit" />
      <div className="flex justify-end gap-3">
        <Button type="button" variant="outline" onClick={onClose} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={update.isPending} loadingText="Saving...">
          Save Changes
        </Button>
      </div>
    </form>
  )
}

export function EditPatientDialog({
  patient,
  onClose,
}: {
  patient: Patient | null
  onClose: () => void
}) {
  if (!patient) return null
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Edit Patient: ${patient.name}`}
      className="max-w-3xl"
    >
      <EditForm patient={patient} onClose={onClose} />
    </Dialog>
  )
}
