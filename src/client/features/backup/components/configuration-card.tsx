import { CloudUpload, HardDrive, Play } from 'lucide-react'
import { useState } from 'react'
import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { ApiError } from '@/client/lib/api-client'
import { useUser } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import {
  type BackupConfiguration,
  backupFrequencyLabels,
  backupTypeLabels,
} from '@/shared/schemas/backup'
import { useRunBackup, useSetConfigurationActive } from '../api/backup-configurations'
import { dataTypesText, dateTimeText } from '../backup-view'
import { RunProgress } from './run-progress'

/** A running log of this configuration, if the activity list knows it. */
export interface RunningLog {
  id: string
  progress: number
}

/** One configuration: what it backs up and how often, its active toggle and 'Run Now'. */
export function ConfigurationCard({
  configuration: c,
  running,
}: {
  configuration: BackupConfiguration
  running: RunningLog | undefined
}) {
  const timeZone = useUser().data?.timeZone
  const setActive = useSetConfigurationActive()
  /** The switch's position while the change is saved (null: the server's). */
  const [shown, setShown] = useState<boolean | null>(null)
  const run = useRunBackup()
  const title = `${backupTypeLabels[c.backupType]} · ${backupFrequencyLabels[c.frequency]}`
  const switchId = `backup-active-${c.id}`
  const Icon = c.backupType === 'gdrive' ? CloudUpload : HardDrive
  const busy = c.running || Boolean(running)

  const toggle = (isActive: boolean) => {
    setShown(isActive)
    setActive.mutate(
      { id: c.id, isActive },
      {
        onSuccess: () => toast.success('Configuration Updated'),
        onError: (error) =>
          toast.error('Error', error instanceof ApiError ? error.serverMessage : undefined),
        onSettled: () => setShown(null),
      },
    )
  }
  const runNow = () =>
    run.mutate(c.id, {
      onSuccess: () => toast.success('Backup Started'),
      onError: (error) =>
        toast.error('Error', error instanceof ApiError ? error.serverMessage : undefined),
    })

  return (
    <li
      className="min-w-0 space-y-3 rounded-lg border border-slate-200 bg-white p-4"
      aria-label={title}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 items-start gap-3">
          <Icon className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
          <div className="min-w-0">
            <h3 className="font-semibold">{title}</h3>
            <p className="text-sm text-slate-700">{dataTypesText(c.dataTypes)}</p>
          </div>
        </div>
        <Badge variant={c.isActive ? 'green' : 'secondary'}>
          {c.isActive ? 'Active' : 'Paused'}
        </Badge>
      </div>
      <dl className="grid gap-x-4 gap-y-1 text-xs text-slate-600 sm:grid-cols-2">
        <div className="flex flex-wrap gap-1">
          <dt>Last backup:</dt>
          <dd className="text-slate-800">
            {c.lastBackup ? dateTimeText(c.lastBackup, timeZone) : 'Never'}
          </dd>
        </div>
        {c.backupType === 'gdrive' ? (
          <div className="flex min-w-0 flex-wrap gap-1">
            <dt>Folder:</dt>
            <dd className="min-w-0 text-slate-800 [overflow-wrap:anywhere]">
              {c.gdriveFolderId ?? 'My Drive'}
            </dd>
          </div>
        ) : null}
      </dl>
      {running ? <RunProgress logId={running.id} initial={running.progress} /> : null}
      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-3">
        <div className="flex items-center gap-2 text-sm">
          <input
            id={switchId}
            type="checkbox"
            role="switch"
            className="size-4 shrink-0 accent-brand-600"
            // While the change is saved the switch shows it; a refusal puts it back.
            checked={shown ?? c.isActive}
            disabled={setActive.isPending}
            onChange={(e) => toggle(e.target.checked)}
          />
          <label htmlFor={switchId} className="font-medium text-slate-800">
            Active
          </label>
        </div>
        <Button
          size="sm"
          variant="outline"
          onClick={runNow}
          loading={run.isPending}
          loadingText="Starting..."
          disabled={busy}
          aria-label={`${busy ? 'Running' : 'Run Now'}: ${title}`}
        >
          <Play aria-hidden="true" /> {busy ? 'Running' : 'Run Now'}
        </Button>
      </div>
    </li>
  )
}
