import { zodResolver } from '@hookform/resolvers/zod'
import { useForm, useWatch } from 'react-hook-form'
import type { z } from 'zod'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import {
  backupDataTypeLabels,
  backupDataTypes,
  backupFrequencies,
  backupFrequencyLabels,
  backupTypeLabels,
  backupTypes,
  createBackupConfigurationInput,
  GDRIVE_FOLDER_MAX,
  GDRIVE_TOKEN_MAX,
} from '@/shared/schemas/backup'
import { useCreateConfiguration } from '../api/backup-configurations'

type Values = z.input<typeof createBackupConfigurationInput>
type Name = 'backupType' | 'frequency' | 'dataTypes' | 'gdriveAccessToken' | 'gdriveFolderId'
const names: readonly string[] = [
  'backupType',
  'frequency',
  'dataTypes',
  'gdriveAccessToken',
  'gdriveFolderId',
]

const dataTypeHints = {
  leads: 'Leads with their notes and messages',
  sales: 'Appointments and marketing campaigns',
  billing: 'Invoices, their items and payments',
} as const

const defaults: Values = {
  backupType: 'offline',
  frequency: '1day',
  dataTypes: [...backupDataTypes],
  gdriveAccessToken: '',
  gdriveFolderId: '',
}

function ConfigurationForm({ onDone }: { onDone: () => void }) {
  const form = useForm<Values, unknown, z.output<typeof createBackupConfigurationInput>>({
    defaultValues: defaults,
    resolver: zodResolver(createBackupConfigurationInput),
  })
  const create = useCreateConfiguration()
  const errors = form.formState.errors
  const isDrive = useWatch({ control: form.control, name: 'backupType' }) === 'gdrive'
  const a11y = (name: Name) => ({
    id: `backup-${name}`,
    'aria-invalid': Boolean(errors[name]),
    'aria-describedby': errors[name] ? `backup-${name}-error` : undefined,
  })

  const submit = form.handleSubmit(async (input) => {
    // The Drive fields mean nothing to an offline backup: they are not sent.
    const body =
      input.backupType === 'gdrive'
        ? {
            backupType: input.backupType,
            frequency: input.frequency,
            dataTypes: input.dataTypes,
            gdriveAccessToken: input.gdriveAccessToken,
            gdriveFolderId: input.gdriveFolderId || null,
          }
        : { backupType: input.backupType, frequency: input.frequency, dataTypes: input.dataTypes }
    try {
      await create.mutateAsync(body)
      toast.success('Backup Configuration Created')
      onDone()
    } catch (error) {
      if (error instanceof ApiError) {
        for (const [path, message] of Object.entries(error.fieldErrors)) {
          const name = path.split('.')[0] ?? ''
          if (names.includes(name)) form.setError(name as Name, { type: 'server', message })
        }
      }
      toast.error('Error', 'Failed to create backup configuration.')
    }
  })

  const dataTypesError = errors.dataTypes?.message ?? errors.dataTypes?.root?.message
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="backup-backupType" label="Backup Type" error={errors.backupType?.message}>
          <NativeSelect {...a11y('backupType')} {...form.register('backupType')}>
            {backupTypes.map((t) => (
              <option key={t} value={t}>
                {backupTypeLabels[t]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="backup-frequency" label="Frequency" error={errors.frequency?.message}>
          <NativeSelect {...a11y('frequency')} {...form.register('frequency')}>
            {backupFrequencies.map((f) => (
              <option key={f} value={f}>
                {backupFrequencyLabels[f]}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <fieldset
        className="min-w-0 space-y-2"
        aria-invalid={Boolean(dataTypesError)}
        aria-describedby={dataTypesError ? 'backup-dataTypes-error' : undefined}
      >
        <legend className="mb-1.5 text-sm font-medium text-slate-800">
          Data Types<span className="text-red-600"> *</span>
        </legend>
        {backupDataTypes.map((t) => (
          <label
            key={t}
            className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border border-slate-200 px-3 py-2 text-sm hover:bg-slate-50"
          >
            <input
              type="checkbox"
              value={t}
              className="size-4 shrink-0 accent-brand-600"
              {...form.register('dataTypes')}
            />
            <span className="min-w-0">
              <span className="font-medium">{backupDataTypeLabels[t]}</span>
              <span className="block text-xs text-slate-600">{dataTypeHints[t]}</span>
            </span>
          </label>
        ))}
        {dataTypesError ? (
          <p id="backup-dataTypes-error" role="alert" className="text-xs text-red-600">
            {dataTypesError}
          </p>
        ) : null}
      </fieldset>
      {isDrive ? (
        <>
          <Field
            id="backup-gdriveAccessToken"
            label="Google Drive Access Token"
            required
            error={errors.gdriveAccessToken?.message}
            hint="Stored encrypted; it is never shown again."
          >
            <Input
              type="password"
              autoComplete="off"
              maxLength={GDRIVE_TOKEN_MAX}
              {...a11y('gdriveAccessToken')}
              {...form.register('gdriveAccessToken')}
            />
          </Field>
          <Field
            id="backup-gdriveFolderId"
            label="Folder ID (optional)"
            error={errors.gdriveFolderId?.message}
            hint="The Drive folder to save into; empty saves to My Drive."
          >
            <Input
              autoComplete="off"
              maxLength={GDRIVE_FOLDER_MAX}
              {...a11y('gdriveFolderId')}
              {...form.register('gdriveFolderId')}
            />
          </Field>
        </>
      ) : (
        <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-700">
          Offline backups are encrypted files kept on this server; admins download them from Recent
          Backup Activity.
        </p>
      )}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onDone} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={create.isPending} loadingText="Creating...">
          Create Configuration
        </Button>
      </div>
    </form>
  )
}

/** 'New Backup Configuration' (spec sections 2 and 5). */
export function NewConfigurationDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose()
      }}
      title="New Backup Configuration"
      description="Choose where the backup goes, how often it runs and what it holds."
    >
      {open ? <ConfigurationForm onDone={onClose} /> : null}
    </Dialog>
  )
}
