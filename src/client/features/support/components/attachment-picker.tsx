import { CheckCircle2, Paperclip, TriangleAlert, X } from 'lucide-react'
import { type ChangeEvent, useId } from 'react'
import { Button } from '@/client/components/ui/button'
import {
  ATTACHMENT_ACCEPT,
  attachmentExtension,
  attachmentExtensions,
  MAX_ATTACHMENTS,
} from '@/shared/schemas/support-tickets'

export type UploadState =
  | { kind: 'waiting' }
  | { kind: 'uploading' }
  | { kind: 'done' }
  | { kind: 'failed'; message: string }

export interface PickedFile {
  key: string
  file: File
  state: UploadState
}

export const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`

/** Why the browser refuses this file before sending it (the server checks the content too). */
export function fileProblem(file: File, limitBytes: number): string | null {
  if (!attachmentExtension(file.name))
    return `${file.name}: this file type is not accepted (allowed: ${attachmentExtensions.join(', ')})`
  if (file.size === 0) return `${file.name} is empty`
  if (file.size > limitBytes)
    return `${file.name} is larger than ${limitBytes / 1024 / 1024} MB, your plan's limit`
  return null
}

let seq = 0

/**
 * The submit dialog's file picker: several files at once, each listed with its size and a
 * Remove button; files of a refused type or over the plan's limit are not added, with a
 * message saying why. While uploading, each file shows its state.
 */
export function AttachmentPicker({
  files,
  onChange,
  limitBytes,
  error,
  onError,
  busy,
}: {
  files: PickedFile[]
  onChange: (files: PickedFile[]) => void
  limitBytes: number
  error: string | undefined
  onError: (message: string | undefined) => void
  busy: boolean
}) {
  const inputId = useId()
  const hintId = `${inputId}-hint`
  const errorId = `${inputId}-error`
  const add = (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(e.target.files ?? [])
    e.target.value = ''
    const problems: string[] = []
    const next = [...files]
    for (const file of chosen) {
      const problem = fileProblem(file, limitBytes)
      if (problem) problems.push(problem)
      else if (next.length >= MAX_ATTACHMENTS)
        problems.push(`A ticket holds at most ${MAX_ATTACHMENTS} attachments`)
      else next.push({ key: `f${++seq}`, file, state: { kind: 'waiting' } })
    }
    onChange(next)
    onError(problems.length ? [...new Set(problems)].join('. ') : undefined)
  }
  return (
    <div className="space-y-2">
      <label htmlFor={inputId} className="block text-sm font-medium">
        Attachments
      </label>
      <input
        id={inputId}
        type="file"
        multiple
        accept={ATTACHMENT_ACCEPT}
        onChange={add}
        disabled={busy}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        aria-invalid={Boolean(error)}
        className="block w-full min-w-0 text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium hover:file:bg-slate-50"
      />
      <p id={hintId} className="text-xs text-slate-600">
        Images, videos, PDF, Word or text files, up to {limitBytes / 1024 / 1024} MB each.
      </p>
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {files.length ? (
        <ul className="space-y-1" aria-label="Files to attach">
          {files.map((f) => (
            <li
              key={f.key}
              className="flex min-w-0 flex-wrap items-center gap-2 rounded-md border border-slate-200 px-2 py-1 text-sm"
            >
              <Paperclip className="size-4 shrink-0" aria-hidden="true" />
              <span className="min-w-0 flex-1 truncate" title={f.file.name}>
                {f.file.name}
              </span>
              <span className="text-slate-600">{sizeText(f.file.size)}</span>
              <FileState state={f.state} />
              {f.state.kind === 'waiting' && !busy ? (
                <Button
                  type="button"
                  variant="ghost"
                  size="sm"
                  aria-label={`Remove ${f.file.name}`}
                  onClick={() => onChange(files.filter((x) => x.key !== f.key))}
                >
                  <X aria-hidden="true" /> Remove
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

function FileState({ state }: { state: UploadState }) {
  switch (state.kind) {
    case 'waiting':
      return null
    case 'uploading':
      return (
        <span className="text-slate-600" role="status">
          Uploading…
        </span>
      )
    case 'done':
      return (
        <span className="flex items-center gap-1 text-green-800">
          <CheckCircle2 className="size-4" aria-hidden="true" /> Uploaded
        </span>
      )
    case 'failed':
      return (
        <span className="flex w-full items-center gap-1 text-red-700">
          <TriangleAlert className="size-4 shrink-0" aria-hidden="true" /> {state.message}
        </span>
      )
  }
}
