import { Pencil, Plus, RefreshCw } from 'lucide-react'
import { useState } from 'react'
import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { Field } from '@/client/components/ui/field'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { NativeSelect } from '@/client/components/ui/input'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiError } from '@/client/lib/api-client'
import { useCan } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { type MessageChannel, messageChannels } from '@/shared/messaging'
import { useMessageTemplates } from '../api/get-message-templates'
import { useResyncMessageTemplates } from '../api/resync-message-templates'
import { channelLabels } from '../message-rules'
import { approvalLabel, approvalVariants, categoryLabels } from '../template-labels'
import type { MessageTemplate } from '../types'
import { SandboxLabel } from './sandbox-label'
import { TemplateDialog } from './template-dialog'

function TemplateItem({ t, onEdit }: { t: MessageTemplate; onEdit?: (() => void) | undefined }) {
  const facts: [string, string | null][] = [
    ['Provider template name', t.providerTemplateName],
    ['Content SID', t.contentSid],
    ['Language', t.language],
    ['DLT template ID', t.dltTemplateId],
  ]
  return (
    <li data-testid="template">
      <Card>
        <CardContent className="space-y-2 p-4">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-semibold">{t.name}</h3>
            <Badge variant={approvalVariants[t.approvalStatus]}>{approvalLabel(t)}</Badge>
            {/* Approved by the sandbox: no WhatsApp provider is connected yet. */}
            {t.sandbox ? <SandboxLabel plain /> : null}
            {t.category ? <Badge variant="outline">{categoryLabels[t.category]}</Badge> : null}
            {onEdit ? (
              <Button
                size="sm"
                variant="ghost"
                className="ml-auto"
                onClick={onEdit}
                aria-label={`Edit ${t.name}`}
              >
                <Pencil aria-hidden="true" /> Edit
              </Button>
            ) : null}
          </div>
          {t.subject ? <p className="text-sm font-medium">Subject: {t.subject}</p> : null}
          <p className="text-sm whitespace-pre-line text-slate-700">{t.body}</p>
          <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
            {facts
              .filter(([, v]) => v)
              .map(([k, v]) => (
                <div key={k} className="flex gap-1">
                  <dt>{k}:</dt>
                  <dd className="font-mono text-slate-800">{v}</dd>
                </div>
              ))}
          </dl>
        </CardContent>
      </Card>
    </li>
  )
}

/** Settings → Templates: each channel's templates, approval status, edit and add (admins). */
export function TemplatesPanel() {
  const isAdmin = useCan('hospital:manage')
  const canResync = useCan('integrations:manage')
  const [channel, setChannel] = useState<MessageChannel>('whatsapp')
  const [editing, setEditing] = useState<MessageTemplate | null | 'new'>(null)
  const templates = useMessageTemplates(channel)
  const resync = useResyncMessageTemplates()

  async function runResync() {
    try {
      const result = await resync.mutateAsync()
      toast.success('Template statuses updated', `${result.updated} changed.`)
    } catch (error) {
      toast.error(
        'Resync failed',
        error instanceof ApiError ? error.serverMessage : 'Please try again.',
      )
    }
  }

  return (
    <section aria-labelledby="templates-title" className="space-y-4">
      <h2 id="templates-title" className="text-lg font-semibold">
        Message templates
      </h2>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="sm:w-48">
          <Field id="templates-channel" label="Channel">
            <NativeSelect
              id="templates-channel"
              value={channel}
              onChange={(e) => setChannel(e.target.value as MessageChannel)}
            >
              {messageChannels.map((c) => (
                <option key={c} value={c}>
                  {channelLabels[c]}
                </option>
              ))}
            </NativeSelect>
          </Field>
        </div>
        {isAdmin ? (
          <div className="flex flex-wrap gap-2 sm:ml-auto">
            {channel === 'whatsapp' && canResync ? (
              <Button
                variant="outline"
                onClick={() => void runResync()}
                loading={resync.isPending}
                loadingText="Resyncing..."
              >
                <RefreshCw aria-hidden="true" /> Resync
              </Button>
            ) : null}
            <Button onClick={() => setEditing('new')}>
              <Plus aria-hidden="true" /> Add template
            </Button>
          </div>
        ) : null}
      </div>
      {templates.isPending ? (
        <div className="space-y-2" aria-label="Loading templates">
          <Skeleton className="h-20 w-full" />
          <Skeleton className="h-20 w-full" />
        </div>
      ) : templates.isError ? (
        <InlineLoadError
          message="Failed to load the templates."
          onRetry={() => void templates.refetch()}
        />
      ) : templates.data.length === 0 ? (
        <p className="text-sm text-slate-600">No {channelLabels[channel]} templates yet.</p>
      ) : (
        <ul className="space-y-3" aria-label={`${channelLabels[channel]} templates`}>
          {templates.data.map((t) => (
            <TemplateItem key={t.id} t={t} onEdit={isAdmin ? () => setEditing(t) : undefined} />
          ))}
        </ul>
      )}
      <TemplateDialog
        channel={channel}
        editing={editing === 'new' ? null : editing}
        open={editing !== null}
        onClose={() => setEditing(null)}
      />
    </section>
  )
}
