import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Textarea } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { formatMoney } from '@/shared/money'
import { cancelInvoiceInput, type Invoice } from '@/shared/schemas/billing'
import { useUpdateInvoiceStatus } from '../api/update-invoice-status'
import { billedName } from '../billing-labels'

type Values = z.input<typeof cancelInvoiceInput>

function CancelForm({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const form = useForm<Values, unknown, z.output<typeof cancelInvoiceInput>>({
    defaultValues: { status: 'cancelled', reason: '' },
    resolver: zodResolver(cancelInvoiceInput),
  })
  const update = useUpdateInvoiceStatus()
  const error = form.formState.errors.reason?.message

  const submit = form.handleSubmit(async (input) => {
    try {
      await update.mutateAsync({ id: invoice.id, input })
      toast.success('Invoice updated successfully', `${invoice.invoiceNumber} was cancelled.`)
      onClose()
    } catch (e) {
      toast.error('Failed to update invoice', e instanceof ApiError ? e.serverMessage : String(e))
    }
  })

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <p className="text-sm text-slate-700">
        The invoice keeps its number and stays on record as cancelled. This cannot be undone.
      </p>
      <Field id="cancel-reason" label="Reason" required error={error}>
        <Textarea
          id="cancel-reason"
          rows={3}
          maxLength={500}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? 'cancel-reason-error' : undefined}
          placeholder="e.g. Billed twice for the same visit"
          {...form.register('reason')}
        />
      </Field>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onClose} disabled={update.isPending}>
          Keep invoice
        </Button>
        <Button
          type="submit"
          variant="destructive"
          loading={update.isPending}
          loadingText="Cancelling..."
        >
          Cancel invoice
        </Button>
      </div>
    </form>
  )
}

/** Cancel: a reason is required; paid and cancelled invoices are final. */
export function CancelInvoiceDialog({
  invoice,
  onClose,
}: {
  invoice: Invoice | null
  onClose: () => void
}) {
  if (!invoice) return null
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Cancel ${invoice.invoiceNumber}?`}
      description={`${billedName(invoice.patientName)} · ${formatMoney(invoice.amount)}`}
    >
      <CancelForm invoice={invoice} onClose={onClose} />
    </Dialog>
  )
}
