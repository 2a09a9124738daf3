import { zodResolver } from '@hookform/resolvers/zod'
import { useMemo } from 'react'
import { useForm } from 'react-hook-form'
import { Button } from '@/client/components/ui/button'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { gstStates } from '@/shared/gst-states'
import {
  type HospitalSettings,
  type HospitalSettingsFormInput,
  type HospitalSettingsFormOutput,
  hospitalSettingsForm,
} from '@/shared/schemas/hospital-settings'
import { useUpdateHospitalSettings } from '../api/hospital-settings'
import { ReminderOffsetsField } from './reminder-offsets-field'
import { WorkingHoursFields } from './working-hours-fields'

type Text =
  | 'name'
  | 'timeZone'
  | 'slug'
  | 'gstin'
  | 'stateCode'
  | 'upiId'
  | 'invoicePrefix'
  | 'grievanceName'
  | 'grievanceEmail'

/** IANA zones this browser knows, with the saved one kept even if it does not list it. */
function timeZones(current: string): string[] {
  const known =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
  return [...new Set(['Asia/Kolkata', current, ...known])].sort()
}

function toForm(s: HospitalSettings): HospitalSettingsFormInput {
  return {
    name: s.name,
    timeZone: s.timeZone,
    slug: s.slug,
    gstin: s.gstin ?? '',
    stateCode: s.stateCode,
    upiId: s.upiId ?? '',
    invoicePrefix: s.invoicePrefix,
    workingHours: s.workingHours,
    reminderOffsets: s.reminderOffsets,
    grievanceName: s.grievanceName ?? '',
    grievanceEmail: s.grievanceEmail ?? '',
  }
}

/** Settings → General's hospital form: admins edit, everyone else reads. */
export function GeneralForm({ saved, canEdit }: { saved: HospitalSettings; canEdit: boolean }) {
  const form = useForm<HospitalSettingsFormInput, unknown, HospitalSettingsFormOutput>({
    defaultValues: toForm(saved),
    resolver: zodResolver(hospitalSettingsForm),
  })
  const update = useUpdateHospitalSettings()
  const errors = form.formState.errors
  const zones = useMemo(() => timeZones(saved.timeZone), [saved.timeZone])
  const a11y = (name: Text) => ({
    id: `general-${name}`,
    'aria-invalid': Boolean(errors[name]),
    'aria-describedby': errors[name] ? `general-${name}-error` : undefined,
  })

  const submit = form.handleSubmit(async (values) => {
    try {
      const next = await update.mutateAsync(values)
      form.reset(toForm(next))
      toast.success('Settings saved successfully')
    } catch (error) {
      if (error instanceof ApiError) {
        for (const [path, message] of Object.entries(error.fieldErrors)) {
          if (path) form.setError(path as Text, { type: 'server', message })
        }
      }
      toast.error(
        'Failed to save settings',
        error instanceof ApiError ? error.serverMessage : 'Please try again.',
      )
    }
  })

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-5">
      <fieldset disabled={!canEdit} className="min-w-0 space-y-5">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="general-name" label="Hospital name" required error={errors.name?.message}>
            <Input {...a11y('name')} {...form.register('name')} maxLength={120} />
          </Field>
          <Field id="general-timeZone" label="Time zone" error={errors.timeZone?.message}>
            <NativeSelect {...a11y('timeZone')} {...form.register('timeZone')}>
              {zones.map((z) => (
                <option key={z} value={z}>
                  {z.replaceAll('_', ' ')}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field
            id="general-gstin"
            label="GSTIN"
            error={errors.gstin?.message}
            hint="15 characters, e.g. 27AAPFU0939F1ZV. Shown on Tax Invoices."
          >
            <Input
              {...a11y('gstin')}
              {...form.register('gstin')}
              maxLength={15}
              autoCapitalize="characters"
              spellCheck={false}
            />
          </Field>
          <Field id="general-stateCode" label="State (GST)" error={errors.stateCode?.message}>
            <NativeSelect
              {...a11y('stateCode')}
              {...form.register('stateCode', { setValueAs: (v: string | null) => v || null })}
            >
              <option value="">Not set</option>
              {gstStates.map((s) => (
                <option key={s.code} value={s.code}>
                  {s.code} · {s.name}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field
            id="general-upiId"
            label="UPI ID"
            error={errors.upiId?.message}
            hint="Invoices carry a QR code that pays it, e.g. clinic@okaxis"
          >
            <Input {...a11y('upiId')} {...form.register('upiId')} spellCheck={false} />
          </Field>
          <Field
            id="general-invoicePrefix"
            label="Invoice prefix"
            required
            error={errors.invoicePrefix?.message}
            hint="Invoice numbers look like SMH/2026-27/000123"
          >
            <Input
              {...a11y('invoicePrefix')}
              {...form.register('invoicePrefix')}
              maxLength={10}
              autoCapitalize="characters"
            />
          </Field>
          <Field
            id="general-slug"
            label="Booking link"
            required
            error={errors.slug?.message}
            hint="Your public booking page: /book/ followed by this"
          >
            <Input {...a11y('slug')} {...form.register('slug')} maxLength={60} spellCheck={false} />
          </Field>
          <Field
            id="general-grievanceName"
            label="Grievance officer"
            error={errors.grievanceName?.message}
            hint="Whom patients contact about their data (DPDP Act 2023)"
          >
            <Input
              {...a11y('grievanceName')}
              {...form.register('grievanceName')}
              maxLength={100}
              autoComplete="off"
            />
          </Field>
          <Field
            id="general-grievanceEmail"
            label="Grievance email"
            error={errors.grievanceEmail?.message}
            hint="Shown on your public booking page"
          >
            <Input
              {...a11y('grievanceEmail')}
              {...form.register('grievanceEmail')}
              type="email"
              maxLength={100}
              autoComplete="off"
              spellCheck={false}
            />
          </Field>
        </div>
        <WorkingHoursFields control={form.control} errors={errors.workingHours} />
        <ReminderOffsetsField control={form.control} error={errors.reminderOffsets?.message} />
      </fieldset>
      {canEdit ? (
        <div className="flex justify-end">
          <Button type="submit" loading={update.isPending} loadingText="Saving...">
            Save Changes
          </Button>
        </div>
      ) : (
        <p className="text-sm text-slate-600">Only your hospital&apos;s admin can change these.</p>
      )}
    </form>
  )
}
