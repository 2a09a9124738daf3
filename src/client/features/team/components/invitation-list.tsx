import { Mail } from 'lucide-react'
import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { useUser } from '@/client/lib/current-user'
import { formatDate } from '@/shared/dates'
import { roleLabels } from '@/shared/roles'
import type { Invitation } from '@/shared/schemas/team'

/** Open invitations, newest first, each with Resend and Revoke. */
export function InvitationList({
  invitations,
  busyId,
  onResend,
  onRevoke,
}: {
  invitations: Invitation[]
  busyId: string | null
  onResend: (i: Invitation) => void
  onRevoke: (i: Invitation) => void
}) {
  const timeZone = useUser().data?.timeZone
  if (invitations.length === 0)
    return <p className="text-sm text-slate-600">No pending invitations.</p>
  return (
    <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white shadow-sm">
      {invitations.map((i) => (
        <li
          key={i.id}
          data-testid="invitation-row"
          className="flex flex-wrap items-center gap-3 p-3"
        >
          <Mail className="size-5 shrink-0 text-slate-500" aria-hidden="true" />
          <div className="min-w-0 flex-1 basis-48 [overflow-wrap:anywhere]">
            <p className="font-medium text-slate-900">
              {i.name} <span className="font-normal text-slate-600">· {roleLabels[i.role]}</span>
            </p>
            <p className="text-sm text-slate-600">{i.email}</p>
            <p className="text-xs text-slate-600">
              {i.status === 'expired'
                ? `Expired on ${formatDate(i.expiresAt, timeZone)}`
                : `Invited ${formatDate(i.invitedAt, timeZone)}${i.invitedBy ? ` by ${i.invitedBy}` : ''} · valid until ${formatDate(i.expiresAt, timeZone)}`}
            </p>
          </div>
          {i.status === 'expired' ? (
            <Badge variant="yellow">Expired</Badge>
          ) : (
            <Badge variant="blue">Pending</Badge>
          )}
          <div className="flex gap-1">
            <Button
              size="sm"
              variant="outline"
              loading={busyId === i.id}
              onClick={() => onResend(i)}
              aria-label={`Resend the invitation to ${i.name}`}
            >
              Resend
            </Button>
            <Button
              size="sm"
              variant="ghost"
              className="text-red-700 hover:bg-red-50"
              onClick={() => onRevoke(i)}
              aria-label={`Revoke the invitation to ${i.name}`}
            >
              Revoke
            </Button>
          </div>
        </li>
      ))}
    </ul>
  )
}
