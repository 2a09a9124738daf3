import { Trash2 } from 'lucide-react'
import { type UseFormReturn, useWatch } from 'react-hook-form'
import { Button } from '@/client/components/ui/button'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect } from '@/client/components/ui/input'
import { gstRates } from '@/shared/billing'
import { formatMoney } from '@/shared/money'
import type { CatalogueService } from '@/shared/schemas/billing'
import { type InvoiceFormOutput, type InvoiceFormValues, lineFromService } from './invoice-form'
import { Money } from '../components/money'

type LineField = 'name' | 'code' | 'quantity' | 'unitPrice' | 'discount' | 'gstRate'

/**
 * One line of a new invoice: a catalogue service (pre-fills name, SAC/HSN, price and GST rate)
 * or a typed one, its quantity, unit price and discount in rupees, and the GST rate.
 */
export function LineItemFields({
  form,
  index,
  services,
  lineTotal,
  onRemove,
}: {
  form: UseFormReturn<InvoiceFormValues, unknown, InvoiceFormOutput>
  index: number
  services: readonly CatalogueService[]
  /** The preview's total for this line, paise. */
  lineTotal: number
  /** Absent on the only line. */
  onRemove?: (() => void) | undefined
}) {
  const errors = form.formState.errors.lines?.[index]
  const id = (f: LineField | 'service') => `line-${index}-${f}`
  const a11y = (f: LineField) => ({
    id: id(f),
    'aria-invalid': Boolean(errors?.[f]),
    'aria-describedby': errors?.[f] ? `${id(f)}-error` : undefined,
  })
  const serviceId = useWatch({ control: form.control, name: `lines.${index}.serviceId` })

  function pickService(value: string) {
    const service = services.find((s) => s.id === value)
    const quantity = form.getValues(`lines.${index}.quantity`)
    if (service) {
      form.setValue(`lines.${index}`, lineFromService(service, quantity), { shouldValidate: false })
    } else {
      form.setValue(`lines.${index}.serviceId`, null)
    }
  }

  return (
    <fieldset
      className="min-w-0 space-y-3 rounded-md border border-slate-200 p-3"
      data-testid="invoice-line"
    >
      <legend className="px-1 text-sm font-semibold">Line {index + 1}</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id={id('service')} label="From the catalogue">
          <NativeSelect
            id={id('service')}
            value={serviceId ?? ''}
            onChange={(e) => pickService(e.target.value)}
          >
            <option value="">Type a service below</option>
            {services
              .filter((s) => s.active)
              .map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({formatMoney(s.defaultPrice)})
                </option>
              ))}
          </NativeSelect>
        </Field>
        <Field id={id('name')} label="Service name" required error={errors?.name?.message}>
          <Input {...a11y('name')} {...form.register(`lines.${index}.name`)} maxLength={200} />
        </Field>
        <Field id={id('code')} label="SAC/HSN code" error={errors?.code?.message} hint="e.g. 9993">
          <Input
            {...a11y('code')}
            {...form.register(`lines.${index}.code`)}
            inputMode="numeric"
            maxLength={8}
          />
        </Field>
        <Field id={id('quantity')} label="Quantity" required error={errors?.quantity?.message}>
          <Input
            {...a11y('quantity')}
            {...form.register(`lines.${index}.quantity`)}
            inputMode="numeric"
            maxLength={4}
          />
        </Field>
        <Field
          id={id('unitPrice')}
          label="Unit price (₹)"
          required
          error={errors?.unitPrice?.message}
        >
          <Input
            {...a11y('unitPrice')}
            {...form.register(`lines.${index}.unitPrice`)}
            inputMode="decimal"
            placeholder="0.00"
          />
        </Field>
        <Field id={id('discount')} label="Discount (₹)" error={errors?.discount?.message}>
          <Input
            {...a11y('discount')}
            {...form.register(`lines.${index}.discount`)}
            inputMode="decimal"
            placeholder="0.00"
          />
        </Field>
        <Field id={id('gstRate')} label="GST rate" error={errors?.gstRate?.message}>
          <NativeSelect {...a11y('gstRate')} {...form.register(`lines.${index}.gstRate`)}>
            {gstRates.map((r) => (
              <option key={r} value={String(r)}>
                {r === 0 ? '0% (exempt)' : `${r}%`}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <div className="flex items-end justify-between gap-3">
          <p className="text-sm">
            <span className="text-slate-600">Line total (preview): </span>
            <span className="font-semibold" data-testid="line-total">
              <Money paise={lineTotal} />
            </span>
          </p>
          {onRemove ? (
            <Button type="button" size="sm" variant="ghost" onClick={onRemove}>
              <Trash2 aria-hidden="true" /> Remove line {index + 1}
            </Button>
          ) : null}
        </div>
      </div>
    </fieldset>
  )
}
