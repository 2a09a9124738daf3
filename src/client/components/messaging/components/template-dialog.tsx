import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect, Textarea } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { useDocumentTitle } from '@/client/lib/use-document-title'
import type { MessageChannel, TemplateCategory } from '@/shared/messaging'
import { useSaveMessageTemplate } from '../api/save-message-template'
import { categoryLabels, categoriesFor } from '../template-labels'
import type { MessageTemplate, TemplateInput } from '../types'

type Values = Record<
  | 'name'
  | 'subject'
  | 'body'
  | 'category'
  | 'providerTemplateName'
  | 'contentSid'
  | 'language'
  | 'dltTemplateId',
  string
>

function valuesOf(channel: MessageChannel, t: MessageTemplate | null): Values {
  return {
    name: t?.name ?? '',
    subject: t?.subject ?? '',
    body: t?.body ?? '',
    category: t?.category ?? categoriesFor(channel)[0] ?? '',
    providerTemplateName: t?.providerTemplateName ?? '',
    contentSid: t?.contentSid ?? '',
    language: t?.language ?? '',
    dltTemplateId: t?.dltTemplateId ?? '',
  }
}

function inputOf(channel: MessageChannel, v: Values): TemplateInput {
  const opt = (s: string) => (s.trim() ? s.trim() : null)
  return {
    name: v.name.trim(),
    channel,
    body: v.body,
    subject: channel === 'email' ? opt(v.subject) : null,
    category: v.category as TemplateCategory,
    ...(v.language.trim() ? { language: v.language.trim() } : {}),
    ...(channel === 'whatsapp'
      ? {
          providerTemplateName: opt(v.providerTemplateName),
          contentSid: opt(v.contentSid),
        }
      : {}),
    ...(channel === 'sms' ? { dltTemplateId: opt(v.dltTemplateId) } : {}),
  }
}

function TemplateForm({
  channel,
  editing,
  onDone,
}: {
  channel: MessageChannel
  editing: MessageTemplate | null
  onDone: () => void
}) {
  useDocumentTitle(editing ? `Edit template ${editing.name}` : 'New template')
  const [v, setV] = useState<Values>(() => valuesOf(channel, editing))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const save = useSaveMessageTemplate()
  const field = (name: keyof Values, label: string, hint?: string) => (
    <Field id={`template-${name}`} label={label} error={errors[name]} hint={hint}>
      <Input
        id={`template-${name}`}
        value={v[name]}
        aria-invalid={errors[name] ? true : undefined}
        onChange={(e) => setV({ ...v, [name]: e.target.value })}
      />
    </Field>
  )

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    const local: Record<string, string> = {}
    if (!v.name.trim()) local.name = 'Name is required'
    if (!v.body.trim()) local.body = 'Text is required'
    setErrors(local)
    if (Object.keys(local).length) return
    try {
      await save.mutateAsync({ id: editing?.id ?? null, input: inputOf(channel, v) })
      toast.success('Template saved')
      onDone()
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.fieldErrors)
      toast.error(
        'Error',
        error instanceof ApiError ? error.serverMessage : 'Failed to save the template.',
      )
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-3">
      {field('name', 'Name')}
      {channel === 'email' ? field('subject', 'Subject') : null}
      <Field
        id="template-body"
        label="Text"
        error={errors.body}
        hint="{name} becomes the person's name."
      >
        <Textarea
          id="template-body"
          rows={4}
          value={v.body}
          aria-invalid={errors.body ? true : undefined}
          onChange={(e) => setV({ ...v, body: e.target.value })}
        />
      </Field>
      <Field id="template-category" label="Category" error={errors.category}>
        <NativeSelect
          id="template-category"
          value={v.category}
          onChange={(e) => setV({ ...v, category: e.target.value })}
        >
          {/* A stored category of another kind still shows. */}
          {v.category && !categoriesFor(channel).some((c) => c === v.category) ? (
            <option value={v.category}>{categoryLabels[v.category as TemplateCategory]}</option>
          ) : null}
          {categoriesFor(channel).map((c) => (
            <option key={c} value={c}>
              {categoryLabels[c]}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {channel === 'whatsapp' ? (
        <div className="grid gap-3 sm:grid-cols-2">
          {field('providerTemplateName', 'Provider template name', 'As approved in Meta')}
          {field('contentSid', 'Content SID', 'Twilio: HX…')}
        </div>
      ) : null}
      {field('language', 'Language', 'A code such as en, hi or en_US')}
      {channel === 'sms'
        ? field(
            'dltTemplateId',
            'DLT template ID',
            'The text must match the registered template; {#var#} parts may change.',
          )
        : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={save.isPending} loadingText="Saving...">
          Save template
        </Button>
      </div>
    </form>
  )
}

/** Add or edit a message template (admins). */
export function TemplateDialog({
  channel,
  editing,
  open,
  onClose,
}: {
  channel: MessageChannel
  editing: MessageTemplate | null
  open: boolean
  onClose: () => void
}) {
  if (!open) return null
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={editing ? `Edit template: ${editing.name}` : 'New template'}
      className="max-w-lg"
    >
      <TemplateForm channel={channel} editing={editing} onDone={onClose} />
    </Dialog>
  )
}
