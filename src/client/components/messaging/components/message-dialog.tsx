import { ExternalLink, Send } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect, Textarea } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { useUser } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { useDocumentTitle } from '@/client/lib/use-document-title'
import { type MessageChannel, messageChannels } from '@/shared/messaging'
import { useContactState } from '../api/get-contact-state'
import { useMessageTemplates } from '../api/get-message-templates'
import { useSendMessage } from '../api/send-message'
import {
  APPROVAL_HINT,
  applyTemplate,
  channelLabels,
  freeTextBlock,
  templateChoices,
} from '../message-rules'
import type { Recipient } from '../types'
import { useLogWhatsAppChat } from '../use-log-whatsapp-chat'
import { BlockNotice } from './message-notices'
import { SandboxLabel } from './sandbox-label'
import { SmsCounter } from './sms-counter'

const CUSTOM = ''

function MessageForm({
  to,
  initialType,
  onDone,
}: {
  to: Recipient
  initialType: MessageChannel
  onDone: () => void
}) {
  useDocumentTitle(`Message ${to.name}`)
  const [type, setType] = useState<MessageChannel>(initialType)
  const [templateId, setTemplateId] = useState(CUSTOM)
  const [content, setContent] = useState('')
  const [subject, setSubject] = useState('')
  const [refusal, setRefusal] = useState<string | null>(null)
  const contact = useContactState(to)
  const { data: user } = useUser()
  const templates = useMessageTemplates(type)
  const send = useSendMessage()
  const logChat = useLogWhatsAppChat()

  const block = freeTextBlock(type, contact.data)
  const address = type === 'email' ? to.email : to.phone
  const outsideWindow = block === 'outside-window'
  // The spec's choices stay listed; those WhatsApp would not deliver now say so.
  const choices = templateChoices(templates.data ?? [], outsideWindow)
  const offered = choices.filter((t) => !t.needsApproval)
  const chosen = offered.find((t) => t.id === templateId)
  const someNeedApproval = choices.some((t) => t.needsApproval)
  const sandboxApproved = type === 'whatsapp' && choices.some((t) => t.sandbox)
  const cannotSend = block === 'opted-out' || !address || (outsideWindow && !chosen)

  function pickType(next: MessageChannel) {
    setType(next)
    setTemplateId(CUSTOM)
    setRefusal(null)
  }

  function pickTemplate(id: string) {
    setTemplateId(id)
    const template = offered.find((t) => t.id === id)
    // Spec: a template fills the message (and the email subject); Custom clears both.
    const filled = template
      ? applyTemplate(template, to.name, user?.hospitalName)
      : { content: '', subject: '' }
    setContent(filled.content)
    setSubject(filled.subject)
  }

  async function submit(e: FormEvent) {
    e.preventDefault()
    if (!content.trim()) {
      toast.error('Error', 'Please enter a message.')
      return
    }
    setRefusal(null)
    try {
      await send.mutateAsync({
        to,
        type,
        content,
        subject,
        ...(chosen ? { templateId: chosen.id, templateName: chosen.key ?? chosen.name } : {}),
      })
      toast.success(
        'Message queued',
        contact.data?.sandbox[type]
          ? `Sandbox: it goes to the Sandbox Outbox only, not to ${to.name}.`
          : `${channelLabels[type]} to ${to.name}.`,
      )
      onDone()
    } catch (error) {
      if (error instanceof ApiError && error.status < 500 && error.jsonMessage)
        setRefusal(error.jsonMessage)
      toast.failed('Message not sent', error, 'Failed to send message. Please try again.')
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
        <span>
          To: <span className="font-medium text-slate-900">{address ?? 'not on file'}</span>
        </span>
        {contact.data?.sandbox[type] ? <SandboxLabel /> : null}
      </div>
      <Field id="message-type" label="Type">
        <NativeSelect
          id="message-type"
          value={type}
          onChange={(e) => pickType(e.target.value as MessageChannel)}
        >
          {messageChannels.map((c) => (
            <option key={c} value={c}>
              {channelLabels[c]}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <BlockNotice block={address ? block : 'no-address'} channel={type} />
      <Field id="message-template" label="Template">
        <NativeSelect
          id="message-template"
          value={templateId}
          onChange={(e) => pickTemplate(e.target.value)}
          disabled={templates.isPending}
        >
          <option value={CUSTOM}>
            {outsideWindow ? 'Custom (needs a reply in the last 24 hours)' : 'Custom'}
          </option>
          {choices.map((t) => (
            <option key={t.id} value={t.id} disabled={t.needsApproval}>
              {t.needsApproval ? `${t.name} (needs an approved template)` : t.name}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {someNeedApproval ? (
        <p id="message-template-hint" className="text-sm text-slate-700">
          {APPROVAL_HINT}
        </p>
      ) : sandboxApproved ? (
        <p id="message-template-hint" className="text-sm text-slate-700">
          Sandbox: every WhatsApp template counts as approved until a provider is connected in
          Settings → Integrations; messages go to the Sandbox Outbox.
        </p>
      ) : null}
      {templates.isError ? (
        <p role="alert" className="text-sm text-red-700">
          Failed to load the templates. You can still write a message.
        </p>
      ) : null}
      {type === 'email' ? (
        <Field id="message-subject" label="Subject">
          <Input
            id="message-subject"
            value={subject}
            onChange={(e) => setSubject(e.target.value)}
          />
        </Field>
      ) : null}
      <Field id="message-content" label="Message">
        <Textarea
          id="message-content"
          rows={5}
          value={content}
          readOnly={outsideWindow}
          aria-describedby={type === 'sms' ? 'message-sms-count' : undefined}
          onChange={(e) => setContent(e.target.value)}
        />
      </Field>
      {type === 'sms' ? <SmsCounter id="message-sms-count" text={content} /> : null}
      {refusal ? (
        <p role="alert" className="text-sm text-red-700">
          {refusal}
        </p>
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-end">
        {type === 'whatsapp' && to.phone ? (
          <Button variant="link" asChild className="sm:mr-auto">
            <a
              href={`https://wa.me/${to.phone.replace(/^\+/, '')}`}
              target="_blank"
              rel="noopener noreferrer"
              onClick={() => logChat(to)}
            >
              <ExternalLink aria-hidden="true" />
              Open in WhatsApp
            </a>
          </Button>
        ) : null}
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button
          type="submit"
          loading={send.isPending}
          loadingText="Sending..."
          disabled={cannotSend}
        >
          <Send aria-hidden="true" />
          Send Message
        </Button>
      </div>
    </form>
  )
}

/**
 * The spec's message dialog (§2): email, WhatsApp or SMS to a lead or a patient, with the
 * spec's templates, the SMS counter and the email subject. Sent through the outbox: the
 * history shows it queued, then its live status.
 */
export function MessageDialog({
  to,
  type,
  onClose,
}: {
  to: Recipient | null
  type: MessageChannel
  onClose: () => void
}) {
  if (!to) return null
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Send Message to ${to.name}`}
      className="max-w-lg"
    >
      <MessageForm to={to} initialType={type} onDone={onClose} />
    </Dialog>
  )
}
