import { LifeBuoy } from 'lucide-react'
import { useState } from 'react'
import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { ConfirmDialog } from '@/client/components/ui/confirm-dialog'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import type { GrantStatus, SupportGrant } from '@/shared/schemas/support-access'
import { supportToasts } from '@/shared/schemas/support-access'
import { useRevokeSupportAccess, useSupportAccess } from '../api/support-access'
import { SupportGrantForm } from './support-grant-form'

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short' })

const statusBadge: Record<GrantStatus, { label: string; variant: 'green' | 'secondary' }> = {
  active: { label: 'Active', variant: 'green' },
  expired: { label: 'Expired', variant: 'secondary' },
  revoked: { label: 'Revoked', variant: 'secondary' },
}

function GrantItem({ grant, onRevoke }: { grant: SupportGrant; onRevoke: () => void }) {
  const badge = statusBadge[grant.status]
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-3">
      <div className="min-w-0 space-y-1 [overflow-wrap:anywhere]">
        <p className="text-sm font-medium text-slate-900">
          {grant.reason}
          {grant.scope === 'full_admin' ? (
            <Badge variant="destructive" className="ml-2">
              Full admin
            </Badge>
          ) : null}
        </p>
        <p className="text-xs text-slate-600">
          {grant.scope === 'full_admin' ? 'Full admin' : 'Support'} · {grant.hours} hour
          {grant.hours === 1 ? '' : 's'}, granted {when(grant.createdAt)}
          {grant.grantedBy ? ` by ${grant.grantedBy}` : ''} ·{' '}
          {grant.status === 'revoked' && grant.revokedAt
            ? `revoked ${when(grant.revokedAt)}`
            : `${grant.status === 'active' ? 'until' : 'ended'} ${when(grant.expiresAt)}`}
        </p>
      </div>
      <div className="flex items-center gap-2">
        <Badge variant={badge.variant}>{badge.label}</Badge>
        {grant.status === 'active' ? (
          <Button variant="outline" size="sm" onClick={onRevoke}>
            Revoke
          </Button>
        ) : null}
      </div>
    </li>
  )
}

/**
 * Admin → Support access (issue 27): the hospital lets Arogya support in for a set number of
 * hours, sees its grants (Revoke ends one at once) and everything support did inside.
 */
export function SupportAccessSection() {
  const overview = useSupportAccess()
  const revoke = useRevokeSupportAccess()
  const [revoking, setRevoking] = useState<SupportGrant | null>(null)

  async function confirmRevoke(g: SupportGrant) {
    try {
      await revoke.mutateAsync(g.id)
      toast.success(supportToasts.revoked, 'Support is out of your hospital from now on.')
    } catch (error) {
      toast.error(
        supportToasts.revokeFailed,
        error instanceof ApiError ? error.serverMessage : 'Please try again.',
      )
    }
  }

  return (
    <section aria-labelledby="support-access" className="space-y-3">
      <h2 id="support-access" className="flex items-center gap-2 text-lg font-semibold">
        <LifeBuoy aria-hidden="true" className="size-5" /> Support access
      </h2>
      <Card>
        <CardContent className="space-y-5 p-4 sm:p-5">
          <p className="text-sm text-slate-600">
            Arogya support can act inside your hospital only while you allow it. Everything they do
            is recorded below with their name.
          </p>
          <SupportGrantForm />
          {overview.isPending ? (
            <div role="status" aria-busy="true" aria-label="Loading support access">
              <Skeleton className="h-24 w-full" />
            </div>
          ) : overview.isError ? (
            <InlineLoadError
              message="Failed to load support access."
              onRetry={() => void overview.refetch()}
            />
          ) : (
            <div className="grid gap-6 lg:grid-cols-2">
              <div className="min-w-0">
                <h3 className="text-sm font-semibold text-slate-800">Grants</h3>
                {overview.data.grants.length === 0 ? (
                  <p className="py-3 text-sm text-slate-600">You have not granted access yet.</p>
                ) : (
                  <ul className="divide-y divide-slate-200">
                    {overview.data.grants.map((g) => (
                      <GrantItem key={g.id} grant={g} onRevoke={() => setRevoking(g)} />
                    ))}
                  </ul>
                )}
              </div>
              <div className="min-w-0">
                <h3 className="text-sm font-semibold text-slate-800">What support did</h3>
                {overview.data.actions.length === 0 ? (
                  <p className="py-3 text-sm text-slate-600">Nothing yet.</p>
                ) : (
                  <ul className="divide-y divide-slate-200">
                    {overview.data.actions.map((a) => (
                      <li key={a.id} className="space-y-0.5 py-2 [overflow-wrap:anywhere]">
                        <p className="text-sm text-slate-900">{a.summary}</p>
                        <p className="text-xs text-slate-600">
                          {when(a.createdAt)} · {a.by}
                        </p>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            </div>
          )}
        </CardContent>
      </Card>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(o) => !o && setRevoking(null)}
        title="Revoke support access?"
        description="Support is refused from their next request on."
        cancelLabel="Keep"
        confirmLabel="Revoke"
        destructive
        onConfirm={() => revoking && void confirmRevoke(revoking)}
      />
    </section>
  )
}
