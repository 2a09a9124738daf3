import { zodResolver } from '@hookform/resolvers/zod'
import { useForm, useWatch } from 'react-hook-form'
import { z } from 'zod'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { paymentMethodLabels, paymentMethods } from '@/shared/billing'
import { formatMoney } from '@/shared/money'
import { type Invoice, markPaidInput } from '@/shared/schemas/billing'
import { useUpdateInvoiceStatus } from '../api/update-invoice-status'
import { billedName } from '../billing-labels'
import { paiseToRupeesText, RUPEES_MESSAGE, rupeesTextToPaise } from '../money-input'
import { Money } from './money'

/** The form as typed: the amount in rupees; it becomes the shared markPaidInput's paise. */
function markPaidForm(balance: number) {
  return z
    .object({
      // The desk says how the money came; 'unspecified' is only the spec's bare API call.
      method: z.enum(paymentMethods, { message: 'Choose how the patient paid' }),
      reference: markPaidInput.shape.reference,
      amount: z.string(),
    })
    .transform((v, ctx) => {
      const paise = rupeesTextToPaise(v.amount)
      if (paise === null || paise <= 0) {
        ctx.addIssue({ code: 'custom', path: ['amount'], message: RUPEES_MESSAGE })
        return z.NEVER
      }
      if (paise > balance) {
        ctx.addIssue({
          code: 'custom',
          path: ['amount'],
          message: `The balance is ${formatMoney(balance)}: the payment cannot be more`,
        })
        return z.NEVER
      }
      return markPaidInput.parse({ status: 'paid', ...v, amount: paise })
    })
}

type Values = z.input<ReturnType<typeof markPaidForm>>

function MarkPaidForm({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const schema = markPaidForm(invoice.balance)
  const form = useForm<Values, unknown, z.output<typeof schema>>({
    defaultValues: { method: 'upi', reference: '', amount: paiseToRupeesText(invoice.balance) },
    resolver: zodResolver(schema),
  })
  const update = useUpdateInvoiceStatus()
  const errors = form.formState.errors
  const typed = rupeesTextToPaise(useWatch({ control: form.control, name: 'amount' }))
  const partial = typed !== null && typed > 0 && typed < invoice.balance

  const submit = form.handleSubmit(async (input) => {
    try {
      await update.mutateAsync({ id: invoice.id, input })
      toast.success('Invoice updated successfully')
      onClose()
    } catch (error) {
      const message = error instanceof ApiError ? error.serverMessage : String(error)
      toast.error('Failed to update invoice', message)
    }
  })

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="pay-method" label="Payment method" required error={errors.method?.message}>
          <NativeSelect id="pay-method" {...form.register('method')}>
            {paymentMethods.map((m) => (
              <option key={m} value={m}>
                {paymentMethodLabels[m]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field
          id="pay-amount"
          label="Amount (₹)"
          required
          error={errors.amount?.message}
          hint={`Balance ${formatMoney(invoice.balance)}; less is a partial payment`}
        >
          <Input
            id="pay-amount"
            inputMode="decimal"
            autoComplete="off"
            aria-invalid={Boolean(errors.amount)}
            aria-describedby={errors.amount ? 'pay-amount-error' : undefined}
            {...form.register('amount')}
          />
        </Field>
      </div>
      <Field
        id="pay-reference"
        label="Reference"
        error={errors.reference?.message}
        hint="UPI transaction id, card slip or cheque number"
      >
        <Input
          id="pay-reference"
          autoComplete="off"
          maxLength={100}
          aria-invalid={Boolean(errors.reference)}
          {...form.register('reference')}
        />
      </Field>
      {partial ? (
        <p className="rounded-md bg-yellow-50 p-3 text-sm text-yellow-900" role="status">
          A partial payment: <Money paise={invoice.balance - (typed ?? 0)} /> will still be owed and
          the invoice stays {invoice.status}.
        </p>
      ) : null}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onClose} disabled={update.isPending}>
          Close
        </Button>
        <Button type="submit" loading={update.isPending} loadingText="Saving...">
          {partial ? 'Record payment' : 'Mark Paid'}
        </Button>
      </div>
    </form>
  )
}

/** Mark Paid: the method, a reference and the amount (default the balance). */
export function MarkPaidDialog({
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
      title={`Mark Paid: ${invoice.invoiceNumber}`}
      description={`${billedName(invoice.patientName)} · ${formatMoney(invoice.amount)}`}
    >
      <MarkPaidForm invoice={invoice} onClose={onClose} />
    </Dialog>
  )
}
