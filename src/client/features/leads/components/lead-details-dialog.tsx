import { useEffect, useRef } from 'react'
import { Dialog } from '@/client/components/ui/dialog'
import { Spinner } from '@/client/components/ui/spinner'
import { ApiError } from '@/client/lib/api-client'
import { useCan, useUser } from '@/client/lib/current-user'
import { formatDate } from '@/shared/dates'
import { formatPhone } from '@/shared/phone-format'
import { leadPriorityLabels, leadSourceLabels, leadStatusLabels } from '@/shared/lead-labels'
import type { Lead } from '@/shared/schemas/leads'
import { useLead } from '../api/get-lead'
import { CommunicationHistory } from '@/client/components/messaging/components/communication-history'
import { ConsentList } from '@/client/components/messaging/components/consent-list'
import { ContactCalls } from '@/client/features/calls/components/contact-calls'
import { useMarkLeadRead } from '../api/mark-lead-read'
import { LeadEditForm } from './lead-edit-form'
import { LeadQuickActions } from './lead-quick-actions'

/** The lead to show: its id, and the row already on screen (if any) to show at once. */
export interface Viewing {
  id: string
  shown?: Lead
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="min-w-0 space-y-3 rounded-lg border border-slate-200 p-4">
      <h3 className="text-base font-semibold">{title}</h3>
      {children}
    </section>
  )
}

function Facts({ rows }: { rows: [string, string | null][] }) {
  return (
    <dl className="grid min-w-0 gap-3">
      {rows.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{label}</dt>
          <dd className="mt-0.5 text-sm whitespace-pre-line [overflow-wrap:anywhere]">
            {value ?? 'Not provided'}
          </dd>
        </div>
      ))}
    </dl>
  )
}

function Details({ lead }: { lead: Lead }) {
  const canWrite = useCan('leads:write')
  const timeZone = useUser().data?.timeZone
  const contact: [string, string | null][] = [
    ['Name', lead.name],
    ['Email', lead.email],
    ['Phone', formatPhone(lead.phone)],
    ['Service Interest', lead.serviceInterest],
  ]
  const details: [string, string | null][] = [
    ['Source', leadSourceLabels[lead.source]],
    ['Campaign', lead.campaign],
    ['Added', formatDate(lead.createdAt, timeZone)],
    [
      'Contact attempts',
      `${lead.contactAttempts}${lead.contactLimitExceeded ? ' (max attempts reached)' : ''}`,
    ],
  ]
  if (!canWrite) {
    details.push(
      ['Status', leadStatusLabels[lead.status]],
      ['Priority', leadPriorityLabels[lead.priority]],
      ['Assigned To', lead.assignedToName ?? 'Unassigned'],
      ['Notes', lead.notes],
    )
  }
  return (
    <div className="space-y-4">
      <div className="grid gap-4 md:grid-cols-2">
        <Section title="Contact Information">
          <Facts rows={contact} />
        </Section>
        <Section title="Lead Details">
          <Facts rows={details} />
        </Section>
      </div>
      {canWrite ? (
        <Section title="Update Lead">
          <LeadEditForm lead={lead} />
        </Section>
      ) : null}
      <Section title="Quick Actions">
        <LeadQuickActions lead={lead} />
      </Section>
      <Section title="Calls">
        <ContactCalls of={{ kind: 'lead', id: lead.id }} />
      </Section>
      <Section title="Communication History">
        <CommunicationHistory of={{ kind: 'lead', id: lead.id }} />
      </Section>
      <Section title="Messaging Consent">
        <ConsentList of={{ kind: 'lead', id: lead.id }} />
      </Section>
    </div>
  )
}

/** Marks the lead's inbound messages read once per opening (users who may change leads). */
function useMarkReadOnOpen(id: string | null) {
  const canWrite = useCan('leads:write')
  const markRead = useMarkLeadRead()
  const done = useRef<string | null>(null)
  const { mutate } = markRead
  useEffect(() => {
    if (!id) done.current = null
    if (!id || !canWrite || done.current === id) return
    done.current = id
    mutate(id)
  }, [id, canWrite, mutate])
}

/** Spec "Lead Details dialog": contact, details, history and quick actions. */
export function LeadDetailsDialog({
  viewing,
  onClose,
}: {
  viewing: Viewing | null
  onClose: () => void
}) {
  const query = useLead(viewing?.id ?? null, viewing?.shown)
  useMarkReadOnOpen(query.isSuccess ? (viewing?.id ?? null) : null)
  if (!viewing) return null
  const lead = query.data
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={lead ? `Lead Details: ${lead.name}` : 'Lead Details'}
      className="max-w-3xl"
    >
      {lead ? (
        <Details lead={lead} />
      ) : query.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {query.error instanceof ApiError && query.error.status === 404
            ? 'This lead was not found.'
            : 'Failed to load the lead. Please try again.'}
        </p>
      ) : (
        <div className="flex justify-center py-8">
          <Spinner label="Loading lead" className="size-6" />
        </div>
      )}
    </Dialog>
  )
}
