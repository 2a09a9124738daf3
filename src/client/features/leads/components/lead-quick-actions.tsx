import { ExternalLink, Mail, MessageCircle, UserCheck } from 'lucide-react'
import { useState } from 'react'
import { Link, useLocation } from 'wouter'
import { ScheduleAppointmentButton } from '@/client/components/appointments/schedule-appointment-button'
import { Button } from '@/client/components/ui/button'
import { MessageActions } from '@/client/components/messaging/components/message-actions'
import { ConfirmDialog } from '@/client/components/ui/confirm-dialog'
import { CallButton } from '@/client/features/calls/components/call-button'
import { ApiError } from '@/client/lib/api-client'
import { useCan } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { paths } from '@/client/paths'
import type { Lead } from '@/shared/schemas/leads'
import { useConvertLead } from '../api/convert-lead'
import { contactHref, leadRecipient } from '../lead-format'
import { useContactActions } from '../use-contact-actions'

const patientHref = (id: string) => `${paths.patients}?open=${encodeURIComponent(id)}`

/** Convert to patient (once), or the link to the patient the lead became. */
function ConvertAction({ lead }: { lead: Lead }) {
  const canWrite = useCan('leads:write')
  const convert = useConvertLead()
  const [confirming, setConfirming] = useState(false)
  const [, navigate] = useLocation()

  if (lead.patientId) {
    return (
      <Button variant="outline" asChild>
        <Link href={patientHref(lead.patientId)}>
          <ExternalLink aria-hidden="true" />
          Open patient record
        </Link>
      </Button>
    )
  }
  if (!canWrite || lead.status === 'converted') return null

  async function run() {
    try {
      const { patient } = await convert.mutateAsync(lead.id)
      toast.success('Lead converted to patient', `Patient number ${patient.patientNumber}`, {
        label: 'Open patient',
        onClick: () => navigate(patientHref(patient.id)),
      })
    } catch (error) {
      toast.error(
        'Error',
        error instanceof ApiError && error.status === 409
          ? 'This lead was already converted.'
          : 'Failed to convert the lead. Please try again.',
      )
    }
  }

  return (
    <>
      <Button
        onClick={() => setConfirming(true)}
        loading={convert.isPending}
        loadingText="Converting..."
      >
        <UserCheck aria-hidden="true" />
        Convert to patient
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Convert to patient?"
        description={`A patient record is created from ${lead.name}'s name, phone and email, and the lead is marked Converted.`}
        cancelLabel="Cancel"
        confirmLabel="Convert"
        onConfirm={() => void run()}
      />
    </>
  )
}

/**
 * Spec Quick Actions: Call (through the hospital's number, issue 41; not for a viewer),
 * WhatsApp, Email, Schedule; plus Convert to patient. WhatsApp and Email open the message
 * dialog (a viewer gets the phone's own apps).
 */
export function LeadQuickActions({ lead }: { lead: Lead }) {
  const { onWhatsApp } = useContactActions()
  const canMessage = useCan('leads:write')
  return (
    <div className="flex flex-wrap gap-2">
      <CallButton contact={{ kind: 'lead', id: lead.id, name: lead.name, phone: lead.phone }} />
      {canMessage ? (
        <MessageActions to={leadRecipient(lead)} channels={['whatsapp', 'email']} />
      ) : (
        <>
          <Button variant="outline" asChild>
            <a
              href={contactHref.whatsapp(lead.phone)}
              target="_blank"
              rel="noopener noreferrer"
              onClick={() => onWhatsApp(lead)}
            >
              <MessageCircle aria-hidden="true" />
              WhatsApp
            </a>
          </Button>
          {lead.email ? (
            <Button variant="outline" asChild>
              <a href={contactHref.email(lead.email)}>
                <Mail aria-hidden="true" />
                Email
              </a>
            </Button>
          ) : (
            <Button variant="outline" disabled title="No email address">
              <Mail aria-hidden="true" />
              Email
            </Button>
          )}
        </>
      )}
      <ScheduleAppointmentButton
        variant="outline"
        label="Schedule"
        lead={{ id: lead.id, name: lead.name, phone: lead.phone }}
      />
      <ConvertAction lead={lead} />
    </div>
  )
}
