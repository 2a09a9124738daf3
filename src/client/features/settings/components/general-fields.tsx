import { useMemo } from 'react'
import { useFormContext } from 'react-hook-form'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect } from '@/client/components/ui/input'
import { currencies } from '@/shared/currency'
import { gstStates } from '@/shared/gst-states'
import {
  regions,
  type SettingsFormInput,
  type SettingsFormOutput,
  usTimeZones,
} from '@/shared/schemas/settings'
import { invoicePrefixHint } from './invoice-prefix-hint'
import { ReminderOffsetsField } from './reminder-offsets-field'
import { WorkingHoursFields } from './working-hours-fields'

type Text =
  | 'name'
  | 'timeZone'
  | 'currency'
  | 'region'
  | 'address'
  | 'phone'
  | 'email'
  | 'slug'
  | 'gstin'
  | 'stateCode'
  | 'upiId'
  | 'invoicePrefix'
  | 'grievanceName'
  | 'grievanceEmail'

const usLabels: Record<(typeof usTimeZones)[number], string> = {
  'America/New_York': 'US Eastern (America/New York)',
  'America/Chicago': 'US Central (America/Chicago)',
  'America/Denver': 'US Mountain (America/Denver)',
  'America/Los_Angeles': 'US Pacific (America/Los Angeles)',
}

/** India first, then the spec's four US zones, then every other IANA zone this browser knows. */
function timeZones(current: string): { value: string; label: string }[] {
  const known =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
  const first = ['Asia/Kolkata', ...usTimeZones] as string[]
  const rest = [...new Set([current, ...known])].filter((z) => !first.includes(z)).sort()
  return [...first, ...rest].map((value) => ({
    value,
    label:
      value === 'Asia/Kolkata'
        ? 'India (Asia/Kolkata)'
        : (usLabels[value as keyof typeof usLabels] ?? value.replaceAll('_', ' ')),
  }))
}

/** Settings → General: the hospital's profile, GST and payment details, hours and reminders. */
export function GeneralFields() {
  const form = useFormContext<SettingsFormInput, unknown, SettingsFormOutput>()
  const errors = form.formState.errors.general
  const savedZone = form.formState.defaultValues?.general?.timeZone ?? 'Asia/Kolkata'
  const zones = useMemo(() => timeZones(savedZone), [savedZone])
  const [prefix, zone] = form.watch(['general.invoicePrefix', 'general.timeZone'])
  const attrs = (name: Text) => ({
    id: `general-${name}`,
    'aria-invalid': Boolean(errors?.[name]),
    'aria-describedby': errors?.[name] ? `general-${name}-error` : undefined,
  })
  const a11y = (name: Text) => ({ ...attrs(name), ...form.register(`general.${name}`) })
  const error = (name: Text) => errors?.[name]?.message

  return (
    <div className="space-y-5">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="general-name" label="Hospital name" required error={error('name')}>
          <Input {...a11y('name')} maxLength={120} autoComplete="organization" />
        </Field>
        <Field id="general-timeZone" label="Time zone" error={error('timeZone')}>
          <NativeSelect {...a11y('timeZone')}>
            {zones.map((z) => (
              <option key={z.value} value={z.value}>
                {z.label}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="general-currency" label="Currency" error={error('currency')}>
          <NativeSelect {...a11y('currency')}>
            {currencies.map((c) => (
              <option key={c.code} value={c.code}>
                {c.code} · {c.name}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="general-region" label="Region" error={error('region')}>
          <NativeSelect {...a11y('region')}>
            {regions.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <div className="sm:col-span-2">
          <Field id="general-address" label="Business address" error={error('address')}>
            <Input {...a11y('address')} maxLength={500} autoComplete="street-address" />
          </Field>
        </div>
        <Field
          id="general-stateCode"
          label="State"
          error={error('stateCode')}
          hint="Also GST's place of supply"
        >
          <NativeSelect
            {...attrs('stateCode')}
            {...form.register('general.stateCode', { setValueAs: (v: string | null) => v || null })}
          >
            <option value="">Not set</option>
            {gstStates.map((s) => (
              <option key={s.code} value={s.code}>
                {s.name} ({s.code})
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="general-phone" label="Phone" error={error('phone')}>
          <Input {...a11y('phone')} type="tel" maxLength={32} autoComplete="tel" />
        </Field>
        <Field id="general-email" label="Email" required error={error('email')}>
          <Input
            {...a11y('email')}
            type="email"
            maxLength={254}
            autoComplete="email"
            spellCheck={false}
          />
        </Field>
        <Field
          id="general-gstin"
          label="GSTIN"
          error={error('gstin')}
          hint="15 characters, e.g. 27AAPFU0939F1ZV. Shown on Tax Invoices."
        >
          <Input {...a11y('gstin')} maxLength={15} autoCapitalize="characters" spellCheck={false} />
        </Field>
        <Field
          id="general-upiId"
          label="UPI ID"
          error={error('upiId')}
          hint="Invoices carry a QR code that pays it, e.g. clinic@okaxis"
        >
          <Input {...a11y('upiId')} spellCheck={false} />
        </Field>
        <Field
          id="general-invoicePrefix"
          label="Invoice prefix"
          required
          error={error('invoicePrefix')}
          hint={invoicePrefixHint(prefix ?? '', zone ?? savedZone)}
        >
          <Input {...a11y('invoicePrefix')} maxLength={10} autoCapitalize="characters" />
        </Field>
        <Field
          id="general-slug"
          label="Booking link"
          required
          error={error('slug')}
          hint="Your public booking page: /book/ followed by this"
        >
          <Input {...a11y('slug')} maxLength={60} spellCheck={false} />
        </Field>
        <Field
          id="general-grievanceName"
          label="Grievance officer"
          error={error('grievanceName')}
          hint="Whom patients contact about their data (DPDP Act 2023)"
        >
          <Input {...a11y('grievanceName')} maxLength={100} autoComplete="off" />
        </Field>
        <Field
          id="general-grievanceEmail"
          label="Grievance email"
          error={error('grievanceEmail')}
          hint="Shown on your public booking page"
        >
          <Input
            {...a11y('grievanceEmail')}
            type="email"
            maxLength={100}
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
      </div>
      <WorkingHoursFields control={form.control} errors={errors?.workingHours} />
      <ReminderOffsetsField control={form.control} error={errors?.reminderOffsets?.message} />
    </div>
  )
}
