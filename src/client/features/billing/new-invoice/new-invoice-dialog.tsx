import { zodResolver } from '@hookform/resolvers/zod'
import { Plus } from 'lucide-react'
import { useState } from 'react'
import { useFieldArray, useForm, useWatch } from 'react-hook-form'
import { Button } from '@/client/components/ui/button'
import { DateField } from '@/client/components/ui/date-field'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { NativeSelect, Textarea } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { gstStateName, gstStates } from '@/shared/gst-states'
import { MAX_INVOICE_LINES } from '@/shared/schemas/billing'
import { useCreateInvoice } from '../api/create-invoice'
import { useServices } from '../api/get-services'
import {
  defaultInvoiceValues,
  emptyLine,
  invoiceFormSchema,
  type InvoiceFormOutput,
  type InvoiceFormValues,
  previewLineOf,
  todayIn,
} from './invoice-form'
import { isInterState, previewInvoice } from './invoice-preview'
import { LineItemFields } from './line-item-fields'
import { type PickedPatient, PatientPicker } from './patient-picker'
import { TotalsPreview } from './totals-preview'

interface Props {
  onClose: () => void
  hospitalStateCode: string | null
  /** The hospital's zone: 'today' for the due date. */
  timeZone: string
}

function NewInvoiceForm({ onClose, hospitalStateCode, timeZone }: Props) {
  const [schema] = useState(() => invoiceFormSchema(todayIn(timeZone)))
  const form = useForm<InvoiceFormValues, unknown, InvoiceFormOutput>({
    defaultValues: defaultInvoiceValues(new Date(), timeZone),
    resolver: zodResolver(schema),
  })
  const lines = useFieldArray({ control: form.control, name: 'lines' })
  const [patient, setPatient] = useState<PickedPatient | null>(null)
  const services = useServices()
  const create = useCreateInvoice()
  const errors = form.formState.errors

  const [typedLines, stateCode, dueDate] = useWatch({
    control: form.control,
    name: ['lines', 'patientStateCode', 'dueDate'],
  })
  const preview = previewInvoice(
    typedLines.map(previewLineOf),
    isInterState(stateCode, hospitalStateCode),
  )

  const submit = form.handleSubmit(async (input) => {
    try {
      const invoice = await create.mutateAsync(input)
      toast.success('Invoice created', `${invoice.invoiceNumber} for ${invoice.patientName}.`)
      onClose()
    } catch (error) {
      if (error instanceof ApiError) {
        for (const [path, message] of Object.entries(error.fieldErrors)) {
          form.setError(path as keyof InvoiceFormValues, { type: 'server', message })
        }
      }
      toast.error(
        'Failed to create invoice',
        error instanceof ApiError ? error.serverMessage : 'Please check the invoice and try again.',
      )
    }
  })

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-5">
      <section aria-labelledby="new-invoice-patient" className="space-y-2">
        <h3 id="new-invoice-patient" className="font-semibold">
          Patient <span className="text-red-600">*</span>
        </h3>
        <PatientPicker
          value={patient}
          error={errors.patientId?.message}
          onChange={(p) => {
            setPatient(p)
            form.setValue('patientId', p?.id ?? '', { shouldValidate: form.formState.isSubmitted })
          }}
        />
      </section>
      <section aria-labelledby="new-invoice-lines" className="space-y-3">
        <h3 id="new-invoice-lines" className="font-semibold">
          Line items
        </h3>
        {services.isError ? (
          <p className="text-sm text-red-700">
            The service catalogue did not load; type the services instead.
          </p>
        ) : null}
        {lines.fields.map((field, index) => (
          <LineItemFields
            key={field.id}
            form={form}
            index={index}
            services={services.data ?? []}
            lineTotal={preview.lines[index]?.total ?? 0}
            onRemove={lines.fields.length > 1 ? () => lines.remove(index) : undefined}
          />
        ))}
        {(errors.lines?.message ?? errors.lines?.root?.message) ? (
          <p role="alert" className="text-xs text-red-600">
            {errors.lines.message ?? errors.lines.root?.message}
          </p>
        ) : null}
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={lines.fields.length >= MAX_INVOICE_LINES}
          onClick={() => lines.append({ ...emptyLine })}
        >
          <Plus aria-hidden="true" /> Add line
        </Button>
      </section>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="new-invoice-due" label="Due date" required error={errors.dueDate?.message}>
          <DateField
            id="new-invoice-due"
            value={dueDate}
            onChange={(v) =>
              form.setValue('dueDate', v, { shouldValidate: form.formState.isSubmitted })
            }
            aria-invalid={Boolean(errors.dueDate)}
            aria-describedby={errors.dueDate ? 'new-invoice-due-error' : undefined}
          />
        </Field>
        <Field
          id="new-invoice-state"
          label="Patient's state (place of supply)"
          error={errors.patientStateCode?.message}
          hint="Another state than the hospital's is billed IGST"
        >
          <NativeSelect id="new-invoice-state" {...form.register('patientStateCode')}>
            <option value="">
              Same as the hospital
              {hospitalStateCode
                ? ` (${gstStateName(hospitalStateCode) ?? hospitalStateCode})`
                : ''}
            </option>
            {gstStates.map((s) => (
              <option key={s.code} value={s.code}>
                {s.name} ({s.code})
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <Field id="new-invoice-notes" label="Notes" error={errors.notes?.message}>
        <Textarea id="new-invoice-notes" rows={2} maxLength={2000} {...form.register('notes')} />
      </Field>
      <TotalsPreview preview={preview} />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onClose} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={create.isPending} loadingText="Creating...">
          Create Invoice
        </Button>
      </div>
    </form>
  )
}

/** New Invoice: patient, line items, due date and notes; the server computes the totals. */
export function NewInvoiceDialog({ open, ...props }: Props & { open: boolean }) {
  if (!open) return null
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && props.onClose()}
      title="New Invoice"
      description="Bill a patient for services. Amounts are in rupees."
      className="max-w-3xl"
    >
      <NewInvoiceForm {...props} />
    </Dialog>
  )
}
