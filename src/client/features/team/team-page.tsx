import { UserPlus } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent } from '@/client/components/ui/card'
import { ConfirmDialog } from '@/client/components/ui/confirm-dialog'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiError } from '@/client/lib/api-client'
import { toast } from '@/client/lib/toast'
import { useSendResetLink } from '@/client/features/auth/api/password-reset'
import type { StaffRole } from '@/shared/roles'
import { type Invitation, type TeamMember, userLimitMessage } from '@/shared/schemas/team'
import {
  useRemoveMember,
  useResendInvitation,
  useRevokeInvitation,
  useTeam,
  useUpdateMember,
} from './api/team'
import { InvitationList } from './components/invitation-list'
import { InviteDialog } from './components/invite-dialog'
import { MemberTable } from './components/member-table'

const serverText = (error: unknown) =>
  error instanceof ApiError ? error.serverMessage : 'Please try again.'

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Card>
      <CardContent className="p-4">
        <p className="text-sm text-slate-600">{label}</p>
        <p className="text-2xl font-semibold text-slate-900 tabular-nums">{value}</p>
      </CardContent>
    </Card>
  )
}

/** /admin for a hospital admin: the team, invitations and the plan's user limit. */
export function TeamPage() {
  const team = useTeam()
  const update = useUpdateMember()
  const remove = useRemoveMember()
  const resend = useResendInvitation()
  const revoke = useRevokeInvitation()
  const sendResetLink = useSendResetLink()
  const [inviting, setInviting] = useState(false)
  const [busyId, setBusyId] = useState<string | null>(null)
  const [removing, setRemoving] = useState<TeamMember | null>(null)
  const [revoking, setRevoking] = useState<Invitation | null>(null)

  async function run(id: string, work: () => Promise<void>) {
    setBusyId(id)
    try {
      await work()
    } finally {
      setBusyId(null)
    }
  }

  const changeRole = (m: TeamMember, role: StaffRole) =>
    run(m.id, async () => {
      try {
        await update.mutateAsync({ id: m.id, role })
        toast.success('User updated successfully')
      } catch (error) {
        toast.error('Failed to update user', serverText(error))
      }
    })

  const toggleStatus = (m: TeamMember) =>
    run(m.id, async () => {
      try {
        await update.mutateAsync({
          id: m.id,
          status: m.status === 'active' ? 'suspended' : 'active',
        })
        toast.success('User status updated successfully')
      } catch (error) {
        toast.error('Failed to update user status', serverText(error))
      }
    })

  const confirmRemove = (m: TeamMember) =>
    run(m.id, async () => {
      try {
        await remove.mutateAsync(m.id)
        toast.success('User removed', `${m.name} can no longer sign in to this hospital.`)
      } catch (error) {
        toast.error('Failed to remove user', serverText(error))
      }
    })

  // Issue 40, item 7: a member who forgot their password gets a single-use link by email.
  const resetLink = (m: TeamMember) =>
    run(m.id, async () => {
      try {
        const sent = await sendResetLink.mutateAsync(m.id)
        if (sent.emailStatus === 'failed')
          toast.error(
            'The reset link could not be emailed',
            'Check the email settings and try again.',
          )
        else toast.success('Password reset link sent', sent.message)
      } catch (error) {
        toast.failed('Failed to send the reset link', error, 'Please try again.')
      }
    })

  const resendInvitation = (i: Invitation) =>
    run(i.id, async () => {
      try {
        await resend.mutateAsync(i.id)
        toast.success('Invitation sent again', `A new link went to ${i.email}.`)
      } catch (error) {
        toast.error('Failed to resend invitation', serverText(error))
      }
    })

  const confirmRevoke = (i: Invitation) =>
    run(i.id, async () => {
      try {
        await revoke.mutateAsync(i.id)
        toast.success('Invitation revoked')
      } catch (error) {
        toast.error('Failed to revoke invitation', serverText(error))
      }
    })

  const usage = team.data?.usage
  const seatsUsed = usage ? usage.activeMembers + usage.pendingInvitations : 0
  const full = usage ? seatsUsed >= usage.maxUsers : false

  return (
    <div className="min-w-0 space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold">Admin</h1>
          <p className="text-sm text-slate-600">
            Your hospital&apos;s team: invite members, set roles, suspend or remove.
          </p>
        </div>
        <Button onClick={() => setInviting(true)} disabled={!usage || full}>
          <UserPlus aria-hidden="true" />
          Invite member
        </Button>
      </div>

      {team.isPending ? (
        <div className="space-y-3" role="status" aria-busy="true" aria-label="Loading the team">
          <Skeleton className="h-20 w-full" />
          <Skeleton className="h-48 w-full" />
        </div>
      ) : team.isError ? (
        <InlineLoadError message="Failed to load the team." onRetry={() => void team.refetch()} />
      ) : (
        <>
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            <Stat label="Total Users" value={String(team.data.members.length)} />
            <Stat label="Active Users" value={String(team.data.usage.activeMembers)} />
            <Stat label="Pending Invitations" value={String(team.data.usage.pendingInvitations)} />
            <Stat label="Plan seats used" value={`${seatsUsed} of ${team.data.usage.maxUsers}`} />
          </div>
          {full ? (
            <p
              role="status"
              className="rounded-md border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-900"
            >
              {userLimitMessage(team.data.usage.maxUsers)}
            </p>
          ) : null}
          <section aria-labelledby="team-members" className="space-y-3">
            <h2 id="team-members" className="text-lg font-semibold">
              Members
            </h2>
            {team.data.members.length === 0 ? (
              <p className="text-sm text-slate-600">No members yet. Invite your first colleague.</p>
            ) : (
              <MemberTable
                members={team.data.members}
                busyId={busyId}
                onRole={(m, role) => void changeRole(m, role)}
                onStatus={(m) => void toggleStatus(m)}
                onRemove={setRemoving}
                onResetLink={(m) => void resetLink(m)}
              />
            )}
          </section>
          <section aria-labelledby="team-invitations" className="space-y-3">
            <h2 id="team-invitations" className="text-lg font-semibold">
              Pending invitations
            </h2>
            <InvitationList
              invitations={team.data.invitations}
              busyId={busyId}
              onResend={(i) => void resendInvitation(i)}
              onRevoke={setRevoking}
            />
          </section>
        </>
      )}

      <InviteDialog open={inviting} onOpenChange={setInviting} />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(o) => !o && setRemoving(null)}
        title={`Remove ${removing?.name ?? 'this member'}?`}
        description="They are signed out at once and can no longer sign in to this hospital. Their past activity stays in the audit log."
        cancelLabel="Keep"
        confirmLabel="Remove"
        destructive
        onConfirm={() => removing && void confirmRemove(removing)}
      />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(o) => !o && setRevoking(null)}
        title={`Revoke the invitation to ${revoking?.name ?? 'this person'}?`}
        description="The emailed link stops working and the seat is free again."
        cancelLabel="Keep"
        confirmLabel="Revoke"
        destructive
        onConfirm={() => revoking && void confirmRevoke(revoking)}
      />
    </div>
  )
}
