import { useForm } from 'react-hook-form'
import { Button } from '@/client/components/ui/button'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect, Textarea } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import {
  leadPriorities,
  leadPriorityLabels,
  type LeadPriority,
  leadStatuses,
  leadStatusLabels,
  type LeadStatus,
} from '@/shared/lead-labels'
import type { Lead, UpdateLeadInput } from '@/shared/schemas/leads'
import { useStaff } from '../api/get-staff'
import { useUpdateLead } from '../api/update-lead'

interface Values {
  status: LeadStatus
  priority: LeadPriority
  serviceInterest: string
  notes: string
  assignedToUserId: string
}

function valuesOf(lead: Lead): Values {
  return {
    status: lead.status,
    priority: lead.priority,
    serviceInterest: lead.serviceInterest ?? '',
    notes: lead.notes ?? '',
    assignedToUserId: lead.assignedToUserId ?? '',
  }
}

/** Only what changed, texts trimmed, '' as null. */
function changes(values: Values, lead: Lead): UpdateLeadInput {
  const before = valuesOf(lead)
  const input: Record<string, unknown> = {}
  // A converted lead's status field is disabled (and so undefined): it never changes here.
  if (values.status && values.status !== before.status) input.status = values.status
  if (values.priority !== before.priority) input.priority = values.priority
  for (const key of ['serviceInterest', 'notes', 'assignedToUserId'] as const) {
    const v = values[key].trim()
    if (v !== before[key].trim()) input[key] = v === '' ? null : v
  }
  return input as UpdateLeadInput
}

/** Staff with leads:write change status, priority, service interest, notes and assignee. */
export function LeadEditForm({ lead }: { lead: Lead }) {
  const form = useForm<Values>({ values: valuesOf(lead) })
  const staff = useStaff()
  const update = useUpdateLead()
  const converted = lead.status === 'converted'
  const errors = form.formState.errors

  const submit = form.handleSubmit(async (values) => {
    const input = changes(values, lead)
    if (Object.keys(input).length === 0) {
      toast.info('No changes to save')
      return
    }
    try {
      await update.mutateAsync({ id: lead.id, input })
      toast.success('Lead updated')
    } catch (error) {
      if (error instanceof ApiError) {
        for (const [path, message] of Object.entries(error.fieldErrors)) {
          if (path in values) form.setError(path as keyof Values, { type: 'server', message })
        }
      }
      toast.error('Error', 'Failed to update the lead. Please try again.')
    }
  })

  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      className="space-y-4"
      aria-label="Update lead"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="lead-status" label="Status">
          <NativeSelect id="lead-status" {...form.register('status')} disabled={converted}>
            {leadStatuses
              .filter((s) => s !== 'converted' || converted)
              .map((s) => (
                <option key={s} value={s}>
                  {leadStatusLabels[s]}
                </option>
              ))}
          </NativeSelect>
        </Field>
        <Field id="lead-priority" label="Priority">
          <NativeSelect id="lead-priority" {...form.register('priority')}>
            {leadPriorities.map((p) => (
              <option key={p} value={p}>
                {leadPriorityLabels[p]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="lead-service" label="Service Interest" error={errors.serviceInterest?.message}>
          <Input id="lead-service" maxLength={200} {...form.register('serviceInterest')} />
        </Field>
        <Field id="lead-assignee" label="Assigned To">
          <NativeSelect id="lead-assignee" {...form.register('assignedToUserId')}>
            <option value="">Unassigned</option>
            {lead.assignedToUserId && !staff.data?.some((m) => m.id === lead.assignedToUserId) ? (
              <option value={lead.assignedToUserId}>{lead.assignedToName ?? 'Former staff'}</option>
            ) : null}
            {staff.data?.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <Field id="lead-notes" label="Notes" error={errors.notes?.message}>
        <Textarea id="lead-notes" rows={3} maxLength={5000} {...form.register('notes')} />
      </Field>
      <div className="flex justify-end">
        <Button type="submit" loading={update.isPending} loadingText="Saving...">
          Save Changes
        </Button>
      </div>
    </form>
  )
}
