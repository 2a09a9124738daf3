import { Eye, Send } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect, Textarea } from '@/client/components/ui/input'
import { toast } from '@/client/lib/toast'
import { useDocumentTitle } from '@/client/lib/use-document-title'
import { type MessageChannel, messageChannels } from '@/shared/messaging'
import { useMessageTemplates } from '../api/get-message-templates'
import { usePreviewBulkMessage } from '../api/preview-bulk-message'
import { useSendBulkMessage } from '../api/send-bulk-message'
import { channelLabels, offeredTemplates } from '../message-rules'
import type { BulkMessageInput, BulkPreview } from '../types'
import { BatchProgress } from './batch-progress'
import { BulkPreviewSummary } from './bulk-preview'
import { SmsCounter } from './sms-counter'

const CUSTOM = ''

function BulkForm({ leadIds, onClose }: { leadIds: string[]; onClose: () => void }) {
  useDocumentTitle('Bulk Message')
  const [type, setType] = useState<MessageChannel>('whatsapp')
  const [templateId, setTemplateId] = useState(CUSTOM)
  const [content, setContent] = useState('')
  const [subject, setSubject] = useState('')
  const [preview, setPreview] = useState<BulkPreview | null>(null)
  const [batchId, setBatchId] = useState<string | null>(null)
  const templates = useMessageTemplates(type)
  const previewing = usePreviewBulkMessage()
  const sending = useSendBulkMessage()
  const offered = offeredTemplates(templates.data ?? [], false)

  // Anything changed makes the preview out of date.
  function change(fn: () => void) {
    fn()
    setPreview(null)
  }

  function pickTemplate(id: string) {
    const t = offered.find((x) => x.id === id)
    change(() => {
      setTemplateId(id)
      // Bulk keeps {name}: each lead's own name is filled in when it is sent.
      setContent(t?.body ?? '')
      setSubject(t?.subject ?? '')
    })
  }

  function input(): BulkMessageInput | null {
    if (!content.trim() && templateId === CUSTOM) {
      toast.error('Error', 'Please enter a message.')
      return null
    }
    return {
      leadIds,
      type,
      ...(content.trim() ? { content } : {}),
      ...(type === 'email' && subject.trim() ? { subject: subject.trim() } : {}),
      ...(templateId !== CUSTOM ? { templateId } : {}),
    }
  }

  async function runPreview() {
    const body = input()
    if (!body) return
    try {
      setPreview(await previewing.mutateAsync(body))
    } catch (error) {
      toast.failed('Error', error, 'Failed to send bulk messages. Please try again.')
    }
  }

  async function send() {
    const body = input()
    if (!body) return
    try {
      setBatchId((await sending.mutateAsync(body)).batchId)
    } catch (error) {
      toast.failed('Error', error, 'Failed to send bulk messages. Please try again.')
    }
  }

  if (batchId)
    return (
      <div className="space-y-4">
        <BatchProgress batchId={batchId} />
        <div className="flex justify-end">
          <Button variant="outline" onClick={onClose}>
            Done
          </Button>
        </div>
      </div>
    )

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        void (preview ? send() : runPreview())
      }}
      className="space-y-4"
    >
      <Field id="bulk-type" label="Channel">
        <NativeSelect
          id="bulk-type"
          value={type}
          onChange={(e) =>
            change(() => {
              setType(e.target.value as MessageChannel)
              setTemplateId(CUSTOM)
            })
          }
        >
          {messageChannels.map((c) => (
            <option key={c} value={c}>
              {channelLabels[c]}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field id="bulk-template" label="Template">
        <NativeSelect
          id="bulk-template"
          value={templateId}
          disabled={templates.isPending}
          onChange={(e) => pickTemplate(e.target.value)}
        >
          <option value={CUSTOM}>Custom</option>
          {offered.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {type === 'email' ? (
        <Field id="bulk-subject" label="Subject">
          <Input
            id="bulk-subject"
            value={subject}
            onChange={(e) => change(() => setSubject(e.target.value))}
          />
        </Field>
      ) : null}
      <Field id="bulk-content" label="Message" hint="{name} becomes each lead's name.">
        <Textarea
          id="bulk-content"
          rows={4}
          value={content}
          onChange={(e) => change(() => setContent(e.target.value))}
        />
      </Field>
      {type === 'sms' ? <SmsCounter id="bulk-sms-count" text={content} /> : null}
      {preview ? <BulkPreviewSummary preview={preview} /> : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        {preview ? (
          <Button
            type="submit"
            loading={sending.isPending}
            loadingText="Sending..."
            disabled={preview.recipients === 0}
          >
            <Send aria-hidden="true" />
            Send to {preview.recipients}
          </Button>
        ) : (
          <Button type="submit" loading={previewing.isPending} loadingText="Checking...">
            <Eye aria-hidden="true" />
            Preview
          </Button>
        )}
      </div>
    </form>
  )
}

/** Bulk send to the selected leads: channel, template or text, preview, then live progress. */
export function BulkMessageDialog({
  leadIds,
  open,
  onClose,
}: {
  leadIds: string[]
  open: boolean
  onClose: () => void
}) {
  if (!open || leadIds.length === 0) return null
  const n = leadIds.length
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title="Bulk Message"
      description={`To the ${n} selected ${n === 1 ? 'lead' : 'leads'}.`}
      className="max-w-lg"
    >
      <BulkForm leadIds={leadIds} onClose={onClose} />
    </Dialog>
  )
}
