import { zodResolver } from '@hookform/resolvers/zod'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect, Textarea } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { useCan, useUser } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import {
  attachmentLimitBytes,
  categoryLabels,
  createTicketInput,
  DESCRIPTION_MAX,
  priorityLabels,
  SUBJECT_MAX,
  ticketCategories,
  ticketPriorities,
} from '@/shared/schemas/support-tickets'
import { uploadAttachment } from '../api/attachments'
import { ticketsRootKey, useCreateTicket } from '../api/support-tickets'
import { AttachmentPicker, type PickedFile, type UploadState } from './attachment-picker'

type Values = z.input<typeof createTicketInput>

function SubmitTicketForm({ onClose }: { onClose: () => void }) {
  const form = useForm<Values, unknown, z.output<typeof createTicketInput>>({
    defaultValues: { subject: '', description: '', category: 'technical', priority: 'medium' },
    resolver: zodResolver(createTicketInput),
  })
  const create = useCreateTicket()
  const queryClient = useQueryClient()
  const invalidate = () => queryClient.invalidateQueries({ queryKey: ticketsRootKey })
  const errors = form.formState.errors
  const limitBytes = attachmentLimitBytes(useUser().data?.plan ?? '')
  const canAttach = useCan('support:write')
  const [files, setFiles] = useState<PickedFile[]>([])
  const [fileError, setFileError] = useState<string | undefined>()
  const [uploading, setUploading] = useState(false)
  /** Set once the ticket exists but some files failed: the dialog stays to show which. */
  const [partly, setPartly] = useState(false)

  const setState = (key: string, state: UploadState) =>
    setFiles((all) => all.map((f) => (f.key === key ? { ...f, state } : f)))

  const submit = form.handleSubmit(async (input) => {
    let ticketId: string
    try {
      const ticket = await create.mutateAsync({
        ...input,
        attachments: files.map((f) => ({ name: f.file.name, size: f.file.size })),
      })
      ticketId = ticket.id
    } catch (error) {
      const message = error instanceof ApiError ? error.serverMessage : String(error)
      toast.error('Failed to submit support ticket', message)
      return
    }
    // One upload at a time: each file streams from disk, its state shown as it goes.
    setUploading(true)
    let failed = 0
    for (const f of files) {
      setState(f.key, { kind: 'uploading' })
      try {
        await uploadAttachment(ticketId, f.file)
        setState(f.key, { kind: 'done' })
      } catch (error) {
        failed += 1
        const message = error instanceof ApiError ? error.serverMessage : 'Upload failed'
        setState(f.key, { kind: 'failed', message })
      }
    }
    setUploading(false)
    void invalidate()
    toast.success('Support Ticket Submitted!', 'Our support team usually replies within 2-4 hours.')
    if (failed) {
      toast.error(
        `${failed} attachment${failed === 1 ? '' : 's'} could not be uploaded`,
        'The ticket was submitted; the list below says which files failed and why.',
      )
      setPartly(true)
      return
    }
    onClose()
  })

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <Field id="ticket-subject" label="Subject" required error={errors.subject?.message}>
        <Input
          id="ticket-subject"
          maxLength={SUBJECT_MAX}
          autoComplete="off"
          aria-invalid={Boolean(errors.subject)}
          aria-describedby={errors.subject ? 'ticket-subject-error' : undefined}
          {...form.register('subject')}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="ticket-category" label="Category">
          <NativeSelect id="ticket-category" {...form.register('category')}>
            {ticketCategories.map((c) => (
              <option key={c} value={c}>
                {categoryLabels[c]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="ticket-priority" label="Priority">
          <NativeSelect id="ticket-priority" {...form.register('priority')}>
            {ticketPriorities.map((p) => (
              <option key={p} value={p}>
                {priorityLabels[p]}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <Field
        id="ticket-description"
        label="Description"
        required
        error={errors.description?.message}
        hint="What happened, what you expected, and the steps to see it"
      >
        <Textarea
          id="ticket-description"
          rows={6}
          maxLength={DESCRIPTION_MAX}
          aria-invalid={Boolean(errors.description)}
          aria-describedby={errors.description ? 'ticket-description-error' : undefined}
          {...form.register('description')}
        />
      </Field>
      {/* Issue 39: files count toward the hospital's storage; a viewer (no support:write) only reads. */}
      {canAttach ? (
        <AttachmentPicker
          files={files}
          onChange={setFiles}
          limitBytes={limitBytes}
          error={fileError}
          onError={setFileError}
          busy={create.isPending || uploading || partly}
        />
      ) : null}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        {partly ? (
          <Button type="button" onClick={onClose}>
            Close
          </Button>
        ) : (
          <>
            <Button
              type="button"
              variant="outline"
              onClick={onClose}
              disabled={create.isPending || uploading}
            >
              Cancel
            </Button>
            <Button
              type="submit"
              loading={create.isPending || uploading}
              loadingText={uploading ? 'Uploading...' : 'Submitting...'}
            >
              Submit Ticket
            </Button>
          </>
        )}
      </div>
    </form>
  )
}

export function SubmitTicketDialog({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Submit Support Ticket"
      description="Tell us what went wrong; Arogya support replies within 2-4 hours."
    >
      {open ? <SubmitTicketForm onClose={() => onOpenChange(false)} /> : null}
    </Dialog>
  )
}
