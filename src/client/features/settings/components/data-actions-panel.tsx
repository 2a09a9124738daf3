import { DatabaseBackup, FileDown, HeartPulse, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Link, useLocation } from 'wouter'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { ApiError } from '@/client/lib/api-client'
import { useCan, useUser } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import type { ExportKind } from '@/shared/schemas/data-export'
import { useRunBackupNow } from '../api/backup-run-now'
import { useStartExport } from '../api/data-export'
import { DeleteAllDataDialog } from './delete-all-data-dialog'
import { ExportProgress } from './export-progress'
import { StorageUsageCard } from './storage-usage-card'

interface Running {
  jobId: string
  kind: ExportKind
}

/** The export in progress survives a change of tab or a reload (this tab of the browser only). */
const STORE = 'arogya.settings.data-export'

function stored(): Running | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(STORE) ?? 'null') as Running | null
    return value && typeof value.jobId === 'string' ? value : null
  } catch {
    return null
  }
}

/**
 * Settings → Data (issue 27): Export Data (a zip of CSV files and a manifest), patients as FHIR
 * R4 NDJSON, Create Backup (an encrypted, restorable backup of leads, sales and billing; issue
 * 29, followed on /backup) and Delete All Data. Admins only: the server refuses everyone else,
 * and they see why here.
 */
export function DataActionsPanel() {
  const canManage = useCan('data:export')
  const { data: user, isPending } = useUser()
  const [running, setRunning] = useState<Running | null>(stored)
  const [deleting, setDeleting] = useState(false)
  const start = useStartExport()
  const backup = useRunBackupNow()
  const [, navigate] = useLocation()

  if (isPending) {
    return (
      <p role="status" className="text-sm text-slate-600">
        Loading…
      </p>
    )
  }
  if (!canManage) {
    return (
      <>
        <StorageUsageCard />
        <Card>
          <CardContent className="pt-5 text-sm text-slate-700">
            Exporting, backing up and deleting the hospital’s data are for your hospital’s admin:
            they cover every patient and record. Ask your admin if you need a copy.
          </CardContent>
        </Card>
      </>
    )
  }

  const track = (next: Running | null) => {
    setRunning(next)
    if (next) sessionStorage.setItem(STORE, JSON.stringify(next))
    else sessionStorage.removeItem(STORE)
  }
  const begin = (kind: ExportKind) => {
    start.mutate(kind, {
      onSuccess: ({ jobId }) => track({ jobId, kind }),
      onError: (error) =>
        toast.error(
          'Could not start the export',
          error instanceof ApiError ? error.serverMessage : undefined,
        ),
    })
  }
  const createBackup = () => {
    backup.mutate(
      {},
      {
        onSuccess: () =>
          toast.success('Backup Started', 'Follow its progress on the Backup page.', {
            label: 'Open Backup',
            onClick: () => navigate('/backup'),
          }),
        onError: (error) =>
          toast.error(
            'Error',
            error instanceof ApiError ? error.serverMessage : 'Failed to start the backup.',
          ),
      },
    )
  }
  const busy = start.isPending
  const startingKind = busy ? start.variables : null

  return (
    <section aria-labelledby="data-title" className="space-y-4">
      <h2 id="data-title" className="text-lg font-semibold">
        Your data
      </h2>
      <StorageUsageCard />
      <Card>
        <CardHeader>
          <CardTitle>Export Data</CardTitle>
          <p className="text-sm text-slate-600">
            Everything your hospital holds: a zip with one CSV file per kind of record (patients,
            leads, messages, appointments, invoices, payments, services, consents, the audit trail…)
            and a manifest with each file’s row count and SHA-256 checksum. Patients can also be
            exported as FHIR R4 Patient resources (NDJSON) for another health system.
          </p>
        </CardHeader>
        <CardContent className="space-y-4">
          <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
            <Button onClick={() => begin('data')} disabled={busy} loading={startingKind === 'data'}>
              <FileDown aria-hidden="true" />
              Export Data
            </Button>
            <Button
              variant="outline"
              onClick={() => begin('fhir')}
              disabled={busy}
              loading={startingKind === 'fhir'}
            >
              <HeartPulse aria-hidden="true" />
              Export patients (FHIR)
            </Button>
          </div>
          {running ? (
            <ExportProgress
              key={running.jobId}
              jobId={running.jobId}
              kind={running.kind}
              onDismiss={() => track(null)}
            />
          ) : null}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Create Backup</CardTitle>
          <p className="text-sm text-slate-600">
            An encrypted backup of your leads, sales (appointments and campaigns) and billing, with
            the patients they concern, kept for the backup retention period. Download or restore it,
            and set up scheduled backups, on the{' '}
            <Link href="/backup" className="underline">
              Backup
            </Link>{' '}
            page.
          </p>
        </CardHeader>
        <CardContent>
          <Button variant="outline" onClick={createBackup} loading={backup.isPending}>
            <DatabaseBackup aria-hidden="true" />
            Create Backup
          </Button>
        </CardContent>
      </Card>
      <Card className="border-red-300">
        <CardHeader>
          <CardTitle className="text-red-700">Delete All Data</CardTitle>
          <p className="text-sm text-slate-600">
            Erases your hospital’s patients, leads, messages, appointments, invoices and other
            records for good. Your team’s accounts and the hospital stay. You will type the
            hospital’s name and your password to confirm.
          </p>
        </CardHeader>
        <CardContent>
          <Button variant="destructive" onClick={() => setDeleting(true)}>
            <Trash2 aria-hidden="true" />
            Delete All Data
          </Button>
        </CardContent>
      </Card>
      <DeleteAllDataDialog
        hospitalName={user?.hospitalName ?? ''}
        open={deleting}
        onOpenChange={setDeleting}
      />
    </section>
  )
}
