import { Download, FileUp } from 'lucide-react'
import { plural } from '@/shared/plural'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Dialog } from '@/client/components/ui/dialog'
import { Field } from '@/client/components/ui/field'
import { Input, NativeSelect } from '@/client/components/ui/input'
import { Spinner } from '@/client/components/ui/spinner'
import { ApiError } from '@/client/lib/api-client'
import {
  guessMapping,
  IMPORT_FAILED_MESSAGE,
  IMPORT_MAX_BYTES,
  type ImportField,
  importFieldLabels,
  importFields,
  type ImportMapping,
} from '@/shared/schemas/lead-import'
import { importErrorsUrl, useImportProgress, useUploadLeadsCsv } from '../api/import-leads'
import { type CsvHead, readCsvHead } from './read-csv-head'

const count = new Intl.NumberFormat('en-IN')
type Mapping = Record<ImportField, string>
const noMapping = Object.fromEntries(importFields.map((f) => [f, ''])) as Mapping
const required: ImportField[] = ['name', 'phone']

function Preview({ head }: { head: CsvHead }) {
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold">
        Preview (
        {head.rows.length === 0 ? 'no data rows' : `first ${plural(head.rows.length, 'row')}`})
      </h3>
      {/* The table scrolls inside its own box; the page and the dialog never scroll sideways. */}
      <div
        className="max-w-full overflow-x-auto rounded-md border border-slate-200"
        tabIndex={0}
        role="region"
        aria-label="Preview of the file"
      >
        <table className="w-full text-left text-xs">
          <thead className="bg-slate-50">
            <tr>
              {head.headers.map((h, i) => (
                <th key={i} scope="col" className="px-2 py-1.5 font-semibold whitespace-nowrap">
                  {h || `Column ${i + 1}`}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {head.rows.map((row, r) => (
              <tr key={r} className="border-t border-slate-100">
                {head.headers.map((_, c) => (
                  <td key={c} className="max-w-48 truncate px-2 py-1.5" title={row[c] ?? ''}>
                    {row[c] ?? ''}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}

function MappingFields({
  headers,
  mapping,
  onChange,
  missing,
}: {
  headers: string[]
  mapping: Mapping
  onChange: (m: Mapping) => void
  missing: ImportField[]
}) {
  const columns = [...new Set(headers.filter((h) => h !== ''))]
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-semibold">Columns</legend>
      <p className="text-xs text-slate-600">Which column of the file holds each lead field.</p>
      <div className="grid gap-3 sm:grid-cols-2">
        {importFields.map((field) => {
          const id = `import-map-${field}`
          const isMissing = missing.includes(field)
          return (
            <Field
              key={field}
              id={id}
              label={importFieldLabels[field]}
              required={required.includes(field)}
              error={isMissing ? `Pick the column with the ${field}` : undefined}
            >
              <NativeSelect
                id={id}
                value={mapping[field]}
                aria-invalid={isMissing}
                aria-describedby={isMissing ? `${id}-error` : undefined}
                onChange={(e) => onChange({ ...mapping, [field]: e.target.value })}
              >
                <option value="">
                  {required.includes(field) ? 'Pick a column' : 'Not imported'}
                </option>
                {columns.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          )
        })}
      </div>
    </fieldset>
  )
}

function ImportProgressView({ jobId, onClose }: { jobId: string; onClose: () => void }) {
  const progress = useImportProgress(jobId)
  const p = progress.data
  if (progress.isError && !p) {
    return (
      <div className="space-y-3">
        <p role="alert" className="text-sm text-red-700">
          Could not get the import's progress.
        </p>
        <Button variant="outline" onClick={() => void progress.refetch()}>
          Try again
        </Button>
      </div>
    )
  }
  const finished = p?.status === 'done' || p?.status === 'failed'
  const percent = p && p.total > 0 ? Math.round((p.done / p.total) * 100) : finished ? 100 : 0
  return (
    <div className="space-y-4">
      <div className="space-y-1.5">
        <div className="flex justify-between gap-2 text-sm">
          <span id="import-progress-label">
            {p?.status === 'queued' || !p
              ? 'Waiting to start…'
              : finished
                ? 'Finished'
                : 'Importing…'}
          </span>
          <span>{p ? `${count.format(p.done)} of ${plural(p.total, 'row')}` : ''}</span>
        </div>
        <div
          role="progressbar"
          aria-labelledby="import-progress-label"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${percent}%`}
          className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
        >
          <div
            className="h-full rounded-full bg-brand-600 transition-[width]"
            style={{ width: `${percent}%` }}
          />
        </div>
      </div>
      {p?.status === 'failed' ? (
        <p role="alert" className="text-sm text-red-700">
          {p.message ?? IMPORT_FAILED_MESSAGE}
        </p>
      ) : null}
      {finished && p ? (
        <div role="status" className="space-y-3">
          <h3 className="text-sm font-semibold">Import summary</h3>
          <dl className="grid grid-cols-3 gap-2 text-center">
            {(
              [
                ['New leads', p.created],
                ['Merged', p.merged],
                ['Failed rows', p.failed],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="rounded-md border border-slate-200 p-2">
                <dt className="text-xs text-slate-600">{label}</dt>
                <dd className="text-lg font-semibold">{count.format(value)}</dd>
              </div>
            ))}
          </dl>
          {p.message && p.status === 'done' ? (
            <p className="text-sm text-slate-700">{p.message}</p>
          ) : null}
          {p.merged > 0 ? (
            <p className="text-xs text-slate-600">
              Merged rows had a phone number that is already a lead; their details were added to
              that lead.
            </p>
          ) : null}
        </div>
      ) : null}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        {finished && p && p.failed > 0 ? (
          <Button variant="outline" asChild>
            <a href={importErrorsUrl(jobId)} download="lead-import-errors.csv">
              <Download aria-hidden="true" />
              Download error report
            </a>
          </Button>
        ) : null}
        <Button onClick={onClose} variant={finished ? 'default' : 'outline'}>
          {finished ? 'Done' : 'Close (the import continues)'}
        </Button>
      </div>
    </div>
  )
}

function ImportForm({
  onClose,
  onStarted,
}: {
  onClose: () => void
  onStarted: (jobId: string) => void
}) {
  const [file, setFile] = useState<File | null>(null)
  const [head, setHead] = useState<CsvHead | null>(null)
  const [reading, setReading] = useState(false)
  const [fileError, setFileError] = useState<string | null>(null)
  const [mapping, setMapping] = useState<Mapping>(noMapping)
  const [tried, setTried] = useState(false)
  const [serverError, setServerError] = useState<string | null>(null)
  const upload = useUploadLeadsCsv()

  async function pick(picked: File | null) {
    setFile(picked)
    setHead(null)
    setFileError(null)
    setServerError(null)
    setTried(false)
    if (!picked) return
    if (picked.size > IMPORT_MAX_BYTES) {
      setFileError('The file is larger than 50 MB; split it into smaller files.')
      return
    }
    setReading(true)
    try {
      const read = await readCsvHead(picked)
      setHead(read)
      setMapping({ ...noMapping, ...guessMapping(read.headers) })
    } catch (error) {
      setFileError(
        error instanceof Error && error.message.startsWith('The file')
          ? error.message
          : 'This file could not be read as CSV.',
      )
    } finally {
      setReading(false)
    }
  }

  const missing = tried ? required.filter((f) => !mapping[f]) : []

  async function start() {
    setTried(true)
    if (!file || required.some((f) => !mapping[f])) return
    setServerError(null)
    try {
      const { jobId } = await upload.mutateAsync({ file, mapping: mapping as ImportMapping })
      onStarted(jobId)
    } catch (error) {
      setServerError(
        error instanceof ApiError && error.status < 500 && error.jsonMessage
          ? error.jsonMessage
          : 'The upload failed. Please try again.',
      )
    }
  }

  return (
    <div className="space-y-4">
      <Field
        id="import-file"
        label="CSV file"
        required
        error={fileError ?? undefined}
        hint="UTF-8 CSV with a header row, up to 50 MB."
      >
        <Input
          id="import-file"
          type="file"
          accept=".csv,text/csv"
          className="h-auto py-1.5"
          aria-invalid={Boolean(fileError)}
          aria-describedby={fileError ? 'import-file-error' : undefined}
          onChange={(e) => void pick(e.target.files?.[0] ?? null)}
        />
      </Field>
      {reading ? (
        <p className="flex items-center gap-2 text-sm text-slate-700" role="status">
          <Spinner /> Reading the file…
        </p>
      ) : null}
      {head ? (
        <>
          <Preview head={head} />
          <MappingFields
            headers={head.headers}
            mapping={mapping}
            onChange={setMapping}
            missing={missing}
          />
        </>
      ) : null}
      {serverError ? (
        <p role="alert" className="text-sm text-red-700">
          {serverError}
        </p>
      ) : null}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onClose} disabled={upload.isPending}>
          Cancel
        </Button>
        <Button
          onClick={() => void start()}
          disabled={!head}
          loading={upload.isPending}
          loadingText="Uploading..."
        >
          <FileUp aria-hidden="true" />
          Import
        </Button>
      </div>
    </div>
  )
}

/** Import CSV: pick a file, check the preview and the column mapping, then watch it import. */
export function ImportLeadsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [jobId, setJobId] = useState<string | null>(null)
  if (!open) return null
  const close = () => {
    setJobId(null)
    onClose()
  }
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && close()}
      title="Import CSV"
      description="Leads from a spreadsheet. A phone number that is already a lead is merged into it, not added twice."
    >
      {jobId ? (
        <ImportProgressView jobId={jobId} onClose={close} />
      ) : (
        <ImportForm onClose={close} onStarted={setJobId} />
      )}
    </Dialog>
  )
}
