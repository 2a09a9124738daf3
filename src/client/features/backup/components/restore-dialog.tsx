import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Input } from '@/client/components/ui/input'
import { ApiError } from '@/client/lib/api-client'
import { useUser } from '@/client/lib/current-user'
import type { RestoreMode, RestorePreview, RestoreSource } from '@/shared/schemas/backup'
import { uploadBackupFile, useRestorePreview, useStartRestore } from '../api/backup-restore'
import { dataTypesText, dateTimeText } from '../backup-view'
import { RestorePreviewTable } from './restore-preview-table'
import { RestoreProgress } from './restore-progress'

/** Where a restore reads from: a log of this hospital, or a file the admin picks. */
export type RestoreFrom = { kind: 'log'; logId: string; label: string } | { kind: 'file' }

const modes: { value: RestoreMode; label: string; hint: string }[] = [
  {
    value: 'merge',
    label: 'Merge',
    hint: 'Adds what is missing and updates rows the backup has newer; newer current rows stay.',
  },
  {
    value: 'replace',
    label: 'Replace',
    hint: 'Deletes the current rows of these data types, then puts back the backup’s rows.',
  },
]

function why(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 413) return error.jsonMessage ?? 'The file is too large to restore.'
    return error.serverMessage
  }
  return 'The server could not be reached. Try again.'
}

function RestoreForm({ from, onClose }: { from: RestoreFrom; onClose: () => void }) {
  const timeZone = useUser().data?.timeZone
  const [file, setFile] = useState<File | null>(null)
  const [uploaded, setUploaded] = useState<{ file: File; source: RestoreSource } | null>(null)
  const [uploading, setUploading] = useState(false)
  const [mode, setMode] = useState<RestoreMode>('merge')
  const [preview, setPreview] = useState<RestorePreview | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [restoreId, setRestoreId] = useState<string | null>(null)
  const dryRun = useRestorePreview()
  const start = useStartRestore()

  const source = async (): Promise<RestoreSource | null> => {
    if (from.kind === 'log') return { logId: from.logId }
    if (!file) {
      setError('Choose a backup file first.')
      return null
    }
    if (uploaded?.file === file) return uploaded.source
    setUploading(true)
    try {
      const next = await uploadBackupFile(file)
      setUploaded({ file, source: next })
      return next
    } finally {
      setUploading(false)
    }
  }

  const runDryRun = async () => {
    setError(null)
    setPreview(null)
    try {
      const s = await source()
      if (!s) return
      setPreview(await dryRun.mutateAsync({ source: s, mode }))
    } catch (e) {
      setError(why(e))
    }
  }

  const restore = async () => {
    setError(null)
    try {
      const s = await source()
      if (!s) return
      setRestoreId((await start.mutateAsync({ source: s, mode })).id)
    } catch (e) {
      setError(why(e))
    }
  }

  if (restoreId)
    return (
      <div className="space-y-4">
        <RestoreProgress restoreId={restoreId} />
        <div className="flex justify-end">
          <Button variant="outline" onClick={onClose}>
            Done
          </Button>
        </div>
      </div>
    )

  const busy = uploading || dryRun.isPending || start.isPending
  return (
    <div className="space-y-4">
      {from.kind === 'log' ? (
        <p className="text-sm text-slate-700">
          From the backup of <span className="font-medium">{from.label}</span>.
        </p>
      ) : (
        <Field
          id="restore-file"
          label="Backup file"
          hint="A file downloaded from Recent Backup Activity of this hospital."
        >
          <Input
            id="restore-file"
            type="file"
            className="h-auto py-1.5"
            disabled={busy}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null)
              setPreview(null)
              setError(null)
            }}
          />
        </Field>
      )}
      <fieldset className="min-w-0 space-y-2" disabled={busy}>
        <legend className="mb-1.5 text-sm font-medium text-slate-800">Restore mode</legend>
        {modes.map((m) => (
          <label
            key={m.value}
            className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-200 px-3 py-2 text-sm hover:bg-slate-50"
          >
            <input
              type="radio"
              name="restore-mode"
              value={m.value}
              checked={mode === m.value}
              onChange={() => {
                setMode(m.value)
                setPreview(null)
              }}
              className="mt-0.5 size-4 shrink-0 accent-brand-600"
            />
            <span className="min-w-0">
              <span className="font-medium">{m.label}</span>
              <span className="block text-xs text-slate-600">{m.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {error ? (
        <div role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          <p className="font-medium">This backup cannot be restored</p>
          <p>{error}</p>
        </div>
      ) : null}
      {preview ? (
        <section aria-labelledby="restore-dry-run" className="space-y-2">
          <h3 id="restore-dry-run" className="font-semibold">
            Dry run: nothing has changed yet
          </h3>
          <p className="text-sm text-slate-700">
            {preview.manifest.hospitalName}, made{' '}
            {dateTimeText(preview.manifest.createdAt, timeZone)}:{' '}
            {dataTypesText(preview.manifest.dataTypes)}.
          </p>
          <RestorePreviewTable
            tables={preview.tables}
            caption={`What a ${preview.mode} restore would change`}
          />
        </section>
      ) : null}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onClose} disabled={start.isPending}>
          Cancel
        </Button>
        {preview ? (
          <Button
            variant={mode === 'replace' ? 'destructive' : 'default'}
            onClick={() => void restore()}
            loading={start.isPending}
            loadingText="Starting..."
          >
            Restore
          </Button>
        ) : (
          <Button
            onClick={() => void runDryRun()}
            loading={busy}
            loadingText={uploading ? 'Uploading...' : 'Checking...'}
          >
            Dry Run
          </Button>
        )}
      </div>
    </div>
  )
}

/** Restore: from a log or an uploaded file, Replace or Merge, a dry run first, then the restore. */
export function RestoreDialog({
  from,
  onClose,
}: {
  from: RestoreFrom | null
  onClose: () => void
}) {
  return (
    <Dialog
      open={from !== null}
      onOpenChange={(next) => {
        if (!next) onClose()
      }}
      title="Restore Backup"
      description="A dry run shows what would change; nothing changes until you press Restore."
    >
      {from ? (
        <RestoreForm
          key={from.kind === 'log' ? from.logId : 'file'}
          from={from}
          onClose={onClose}
        />
      ) : null}
    </Dialog>
  )
}
