import { DatabaseBackup, Plus, ShieldCheck, Upload } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { useCan, useUser } from '@/client/lib/current-user'
import { useBackupConfigurations } from './api/backup-configurations'
import { useRecentLogs } from './api/backup-logs'
import { dateTimeText } from './backup-view'
import { ConfigurationCard, type RunningLog } from './components/configuration-card'
import { NewConfigurationDialog } from './components/new-configuration-dialog'
import { RecentActivity } from './components/recent-activity'
import { RestoreDialog, type RestoreFrom } from './components/restore-dialog'

function Configurations({ onCreate }: { onCreate: () => void }) {
  const configurations = useBackupConfigurations()
  const logs = useRecentLogs()
  const running = new Map<string, RunningLog>()
  for (const log of logs.data ?? [])
    if (log.status === 'running' && log.configurationId && !running.has(log.configurationId))
      running.set(log.configurationId, { id: log.id, progress: log.progress })

  return (
    <section aria-labelledby="backup-configurations" className="space-y-3">
      <h2 id="backup-configurations" className="text-lg font-semibold">
        Backup Configurations
      </h2>
      {configurations.isPending ? (
        <div className="space-y-3" role="status" aria-label="Loading backup configurations">
          <Skeleton className="h-32 w-full" />
        </div>
      ) : configurations.isError ? (
        <InlineLoadError
          message="Failed to load the backup configurations."
          onRetry={() => void configurations.refetch()}
        />
      ) : configurations.data.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 py-10 text-center">
            <DatabaseBackup className="size-10 text-slate-400" aria-hidden="true" />
            <h3 className="text-lg font-semibold">No backup configurations yet</h3>
            <p className="max-w-md text-sm text-slate-600">
              Back up your leads, appointments and invoices on a schedule, to this server or to
              Google Drive.
            </p>
            <Button onClick={onCreate}>
              <Plus aria-hidden="true" /> Create Configuration
            </Button>
          </CardContent>
        </Card>
      ) : (
        <ul className="grid gap-3 lg:grid-cols-2" aria-label="Configurations">
          {configurations.data.map((c) => (
            <ConfigurationCard key={c.id} configuration={c} running={running.get(c.id)} />
          ))}
        </ul>
      )}
    </section>
  )
}

/** What everyone but an admin sees: who looks after the backups, and nothing to press. */
function ManagedByAdmin() {
  return (
    <Card>
      <CardContent className="flex items-start gap-3 pt-5 text-sm text-slate-700">
        <ShieldCheck className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
        <p>
          Backups are managed by your hospital’s admin: they hold every lead, appointment and
          invoice, so only an admin can set them up, download or restore them. Ask your admin if you
          need data brought back.
        </p>
      </CardContent>
    </Card>
  )
}

/**
 * /backup (spec section 2, Backup Settings; issue 29): the 'New Backup Configuration' dialog,
 * the configurations with their active toggle and 'Run Now', 'Recent Backup Activity' (the
 * latest 10 logs) with downloads, and Restore (a dry run first). Admins only (backup:manage):
 * the server refuses everyone else, and they are told why here.
 */
export function BackupPage() {
  const { data: user, isPending } = useUser()
  const canManage = useCan('backup:manage')
  const [creating, setCreating] = useState(false)
  const [restoring, setRestoring] = useState<RestoreFrom | null>(null)

  return (
    <div className="min-w-0 space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold">Backup Settings</h1>
          <p className="text-sm text-slate-600">
            Encrypted backups of your hospital’s leads, sales and billing, and restores from them.
          </p>
        </div>
        {canManage ? (
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => setRestoring({ kind: 'file' })}>
              <Upload aria-hidden="true" /> Restore from File
            </Button>
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" /> New Configuration
            </Button>
          </div>
        ) : null}
      </div>
      {isPending ? (
        <p role="status" className="text-sm text-slate-600">
          Loading…
        </p>
      ) : canManage ? (
        <>
          <Configurations onCreate={() => setCreating(true)} />
          <RecentActivity
            onRestore={(log) =>
              setRestoring({
                kind: 'log',
                logId: log.id,
                label: dateTimeText(log.startedAt, user?.timeZone),
              })
            }
          />
          <NewConfigurationDialog open={creating} onClose={() => setCreating(false)} />
          <RestoreDialog from={restoring} onClose={() => setRestoring(null)} />
        </>
      ) : (
        <ManagedByAdmin />
      )}
    </div>
  )
}
