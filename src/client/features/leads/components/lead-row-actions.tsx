import { Mail, MessageCircle, MessageSquare, MoreHorizontal } from 'lucide-react'
import { Button } from '@/client/components/ui/button'
import { MessageActions } from '@/client/components/messaging/components/message-actions'
import { useCan } from '@/client/lib/current-user'
import { CallButton } from '@/client/features/calls/components/call-button'
import type { Lead } from '@/shared/schemas/leads'
import { contactHref, leadRecipient } from '../lead-format'

export interface RowActionHandlers {
  onWhatsApp: (lead: Lead) => void
  onMore: (lead: Lead) => void
}

const icon = 'size-8'

/**
 * Spec row actions: call, WhatsApp, email, SMS and More (the details). Call places a call
 * through the hospital's number (issue 41; hidden for a viewer). WhatsApp, email and SMS open
 * the message dialog; a viewer, who may not send, gets the phone's own apps instead.
 */
export function LeadRowActions({ lead, onWhatsApp, onMore }: RowActionHandlers & { lead: Lead }) {
  const canMessage = useCan('leads:write')
  return (
    <div className="flex items-center justify-end gap-0.5">
      <CallButton
        icon
        className={icon}
        contact={{ kind: 'lead', id: lead.id, name: lead.name, phone: lead.phone }}
      />
      {canMessage ? (
        <MessageActions
          to={leadRecipient(lead)}
          channels={['whatsapp', 'email', 'sms']}
          variant="icon"
          buttonProps={{ className: icon }}
        />
      ) : (
        <>
          <Button variant="ghost" size="icon" className={icon} asChild>
            <a
              href={contactHref.whatsapp(lead.phone)}
              target="_blank"
              rel="noopener noreferrer"
              onClick={() => onWhatsApp(lead)}
              aria-label={`WhatsApp ${lead.name}`}
              title="WhatsApp"
            >
              <MessageCircle aria-hidden="true" />
            </a>
          </Button>
          {lead.email ? (
            <Button variant="ghost" size="icon" className={icon} asChild>
              <a
                href={contactHref.email(lead.email)}
                aria-label={`Email ${lead.name}`}
                title="Email"
              >
                <Mail aria-hidden="true" />
              </a>
            </Button>
          ) : (
            <Button
              variant="ghost"
              size="icon"
              className={icon}
              disabled
              aria-label={`Email ${lead.name} (no email address)`}
              title="No email address"
            >
              <Mail aria-hidden="true" />
            </Button>
          )}
          <Button variant="ghost" size="icon" className={icon} asChild>
            <a href={contactHref.sms(lead.phone)} aria-label={`SMS ${lead.name}`} title="SMS">
              <MessageSquare aria-hidden="true" />
            </a>
          </Button>
        </>
      )}
      <Button
        variant="ghost"
        size="icon"
        className={icon}
        onClick={() => onMore(lead)}
        aria-label={`More about ${lead.name}`}
        title="More"
      >
        <MoreHorizontal aria-hidden="true" />
      </Button>
    </div>
  )
}
