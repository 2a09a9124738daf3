import { MessageSquare, X } from 'lucide-react'
import { plural } from '@/shared/plural'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { NativeSelect } from '@/client/components/ui/input'
import { BulkMessageDialog } from '@/client/components/messaging/components/bulk-message-dialog'
import { toast } from '@/client/lib/toast'
import { type LeadStatus, leadStatuses, leadStatusLabels } from '@/shared/lead-labels'
import type { UpdateLeadInput } from '@/shared/schemas/leads'
import { useStaff } from '../api/get-staff'
import { useUpdateLeads } from '../api/update-lead'

/** Statuses a person may set; 'converted' comes only from Convert to patient. */
const settable = leadStatuses.filter(
  (s): s is Exclude<LeadStatus, 'converted'> => s !== 'converted',
)

/**
 * Shown while at least one lead is selected: change status, assign, send a message (bulk), clear
 * (one PATCH a lead).
 */
export function BulkActionBar({ ids, onClear }: { ids: string[]; onClear: () => void }) {
  const staff = useStaff()
  const update = useUpdateLeads()
  const [messaging, setMessaging] = useState(false)
  const n = ids.length

  async function apply(input: UpdateLeadInput, what: string) {
    const { updated, failed } = await update.mutateAsync({ ids, input })
    if (failed === 0) {
      toast.success(`${updated} ${updated === 1 ? 'lead' : 'leads'} updated`, what)
      onClear()
    } else {
      toast.error('Some leads were not updated', `${updated} updated, ${failed} failed. ${what}`)
    }
  }

  return (
    <div
      role="region"
      aria-label="Bulk actions"
      className="flex flex-col gap-3 rounded-lg border border-brand-600/40 bg-brand-50 p-3 sm:flex-row sm:flex-wrap sm:items-center"
    >
      <p className="text-sm font-semibold" role="status">
        {plural(n, 'lead')} selected
      </p>
      <div className="grid grid-cols-1 gap-2 min-[420px]:grid-cols-2 sm:flex sm:flex-wrap sm:items-center">
        <NativeSelect
          aria-label="Change status"
          value=""
          disabled={update.isPending}
          onChange={(e) => {
            const status = e.target.value as Exclude<LeadStatus, 'converted'>
            if (status) void apply({ status }, `Status set to ${leadStatusLabels[status]}.`)
          }}
          className="sm:w-44"
        >
          <option value="">Change status…</option>
          {settable.map((s) => (
            <option key={s} value={s}>
              {leadStatusLabels[s]}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect
          aria-label="Assign to"
          value=""
          disabled={update.isPending || !staff.data}
          onChange={(e) => {
            const value = e.target.value
            if (!value) return
            const to = value === 'none' ? null : value
            const name = staff.data?.find((m) => m.id === to)?.name
            void apply({ assignedToUserId: to }, name ? `Assigned to ${name}.` : 'Unassigned.')
          }}
          className="sm:w-48"
        >
          <option value="">Assign to…</option>
          <option value="none">Nobody (unassign)</option>
          {staff.data?.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </NativeSelect>
        <Button
          variant="outline"
          disabled={update.isPending || n === 0}
          onClick={() => n > 0 && setMessaging(true)}
        >
          <MessageSquare aria-hidden="true" />
          Send Message
        </Button>
        <Button variant="ghost" onClick={onClear} disabled={update.isPending}>
          <X aria-hidden="true" />
          Clear selection
        </Button>
      </div>
      <BulkMessageDialog leadIds={ids} open={messaging} onClose={() => setMessaging(false)} />
    </div>
  )
}
