import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect, Textarea } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { leadPriorities, leadPriorityLabels, leadSourceLabels } from '@/shared/lead-labels'
import {
  type CreateLeadInput,
  createLeadInput,
  type Lead,
  manualLeadSources,
} from '@/shared/schemas/leads'
import type { z } from 'zod'
import { useCreateLead } from '../api/create-lead'

type Values = CreateLeadInput
type Output = z.output<typeof createLeadInput>
type Name = 'name' | 'phone' | 'email' | 'source' | 'priority' | 'serviceInterest' | 'notes'

const empty: Values = {
  name: '',
  phone: '',
  email: '',
  source: 'manual',
  serviceInterest: '',
  notes: '',
}

function NewLeadForm({
  onClose,
  onOpenLead,
}: {
  onClose: () => void
  onOpenLead: (lead: Lead) => void
}) {
  const form = useForm<Values, unknown, Output>({
    defaultValues: empty,
    resolver: zodResolver(createLeadInput),
  })
  const create = useCreateLead()
  const errors = form.formState.errors
  const a11y = (name: Name) => ({
    id: `new-lead-${name}`,
    'aria-invalid': Boolean(errors[name]),
    'aria-describedby': errors[name] ? `new-lead-${name}-error` : undefined,
  })

  const submit = form.handleSubmit(async (values) => {
    try {
      // Automatic: the server scores it (Settings → priority scoring) or makes it medium.
      const priority = form.getValues('priority') ? values.priority : undefined
      const result = await create.mutateAsync({ ...values, priority })
      if (result.duplicate) {
        toast.info(
          'Already a lead',
          `This phone number belongs to ${result.lead.name}; the enquiry was added to that lead.`,
        )
      } else {
        toast.success('Lead added', `${result.lead.name} was added to your leads.`)
      }
      onClose()
      if (result.duplicate) onOpenLead(result.lead)
    } catch (error) {
      if (error instanceof ApiError) {
        for (const [path, message] of Object.entries(error.fieldErrors)) {
          if (path in empty) form.setError(path as Name, { type: 'server', message })
        }
      }
      toast.error('Error', 'Failed to add the lead. Please check the information and try again.')
    }
  })

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="new-lead-name" label="Name" required error={errors.name?.message}>
          <Input {...a11y('name')} {...form.register('name')} autoComplete="off" maxLength={200} />
        </Field>
        <Field
          id="new-lead-phone"
          label="Phone"
          required
          error={errors.phone?.message}
          hint="Indian numbers as typed: 98765 43210"
        >
          <Input
            {...a11y('phone')}
            {...form.register('phone')}
            type="tel"
            inputMode="tel"
            autoComplete="off"
          />
        </Field>
        <Field id="new-lead-email" label="Email" error={errors.email?.message}>
          <Input {...a11y('email')} {...form.register('email')} type="email" autoComplete="off" />
        </Field>
        <Field id="new-lead-source" label="Source">
          <NativeSelect {...a11y('source')} {...form.register('source')}>
            {manualLeadSources.map((s) => (
              <option key={s} value={s}>
                {leadSourceLabels[s]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="new-lead-priority" label="Priority">
          <NativeSelect
            {...a11y('priority')}
            {...form.register('priority', {
              setValueAs: (v: string | undefined) => (v ? v : undefined),
            })}
          >
            <option value="">Automatic</option>
            {leadPriorities.map((p) => (
              <option key={p} value={p}>
                {leadPriorityLabels[p]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field
          id="new-lead-serviceInterest"
          label="Service Interest"
          error={errors.serviceInterest?.message}
        >
          <Input
            {...a11y('serviceInterest')}
            {...form.register('serviceInterest')}
            maxLength={200}
            placeholder="e.g. Knee consultation"
          />
        </Field>
      </div>
      <Field id="new-lead-notes" label="Notes" error={errors.notes?.message}>
        <Textarea {...a11y('notes')} {...form.register('notes')} rows={3} maxLength={5000} />
      </Field>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onClose} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={create.isPending} loadingText="Adding...">
          Add Lead
        </Button>
      </div>
    </form>
  )
}

/** New Lead: a walk-in or phone enquiry typed in by staff. A known phone joins its lead. */
export function NewLeadDialog({
  open,
  onClose,
  onOpenLead,
}: {
  open: boolean
  onClose: () => void
  onOpenLead: (lead: Lead) => void
}) {
  if (!open) return null
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title="New Lead"
      description="A walk-in or phone enquiry."
    >
      <NewLeadForm onClose={onClose} onOpenLead={onOpenLead} />
    </Dialog>
  )
}
