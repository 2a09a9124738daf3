import { Laptop, LogOut, Smartphone } from 'lucide-react'
import { useState } from 'react'
import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/client/components/ui/card'
import { ConfirmDialog } from '@/client/components/ui/confirm-dialog'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { ApiError } from '@/client/lib/api-client'
import { useUser } from '@/client/lib/current-user'
import { toast } from '@/client/lib/toast'
import { formatAgo, formatDate, formatTime } from '@/shared/dates'
import type { ActiveSession } from '@/shared/schemas/account-security'
import { useRevokeSession, useSessions, useSignOutOtherSessions } from '../api/security-sessions'

const serverText = (error: unknown) =>
  error instanceof ApiError ? error.serverMessage : 'Please try again.'

const isPhone = (device: string) => /iPhone|iPad|Android|iOS/.test(device)

function SessionRow({
  session,
  timeZone,
  onSignOut,
  busy,
}: {
  session: ActiveSession
  timeZone: string
  onSignOut: (session: ActiveSession) => void
  busy: boolean
}) {
  const Icon = isPhone(session.device) ? Smartphone : Laptop
  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 items-start gap-3">
        <Icon className="mt-0.5 size-5 shrink-0 text-slate-500" aria-hidden="true" />
        <div className="min-w-0 space-y-0.5 [overflow-wrap:anywhere]">
          <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
            {session.device}
            {session.current ? <Badge variant="secondary">This device</Badge> : null}
          </p>
          <p className="text-xs text-slate-600">
            {session.ipAddress ?? 'Unknown place'} · Last used{' '}
            {session.current ? 'now' : formatAgo(session.lastUsedAt)}
          </p>
          <p className="text-xs text-slate-600">
            Signed in {formatDate(session.signedInAt, timeZone)},{' '}
            {formatTime(session.signedInAt, timeZone)}
          </p>
        </div>
      </div>
      {session.current ? null : (
        <Button
          variant="outline"
          size="sm"
          className="self-start sm:self-center"
          loading={busy}
          loadingText="Signing out..."
          onClick={() => onSignOut(session)}
          aria-label={`Sign out ${session.device} (${session.ipAddress ?? 'unknown place'})`}
        >
          <LogOut aria-hidden="true" />
          Sign out
        </Button>
      )}
    </li>
  )
}

/** The user's active sessions (device, place, last use), each with its own Sign out. */
export function SecuritySessionsCard() {
  const { data: user } = useUser()
  const sessions = useSessions()
  const revoke = useRevokeSession()
  const others = useSignOutOtherSessions()
  const [confirmAll, setConfirmAll] = useState(false)
  const timeZone = user?.timeZone ?? 'Asia/Kolkata'
  const list = sessions.data?.sessions ?? []
  const otherCount = list.filter((s) => !s.current).length

  function signOut(session: ActiveSession) {
    revoke.mutate(session.id, {
      onSuccess: () => toast.success('Session signed out', `${session.device} is signed out.`),
      onError: (error) => toast.error('Failed to sign out the session', serverText(error)),
    })
  }

  function signOutOthers() {
    others.mutate(undefined, {
      onSuccess: ({ revoked }) =>
        toast.success(
          'Signed out of other sessions',
          revoked === 1
            ? '1 other session was signed out.'
            : `${revoked} other sessions were signed out.`,
        ),
      onError: (error) => toast.error('Failed to sign out other sessions', serverText(error)),
    })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Active Sessions</CardTitle>
        <p className="text-sm text-slate-600">
          Where your account is signed in now. Sign out anything you do not recognise, then change
          your password.
        </p>
      </CardHeader>
      <CardContent className="space-y-3">
        {sessions.isError && !sessions.data ? (
          <InlineLoadError
            message="Failed to load your sessions."
            onRetry={() => void sessions.refetch()}
          />
        ) : !sessions.data ? (
          <div className="space-y-3" role="status" aria-busy="true" aria-label="Loading sessions">
            <Skeleton className="h-12 w-full" />
            <Skeleton className="h-12 w-full" />
          </div>
        ) : (
          <>
            <ul aria-label="Active sessions" className="divide-y divide-slate-200">
              {list.map((session) => (
                <SessionRow
                  key={session.id}
                  session={session}
                  timeZone={timeZone}
                  onSignOut={signOut}
                  busy={revoke.isPending && revoke.variables === session.id}
                />
              ))}
            </ul>
            {otherCount === 0 ? (
              <p className="text-sm text-slate-600">You are not signed in anywhere else.</p>
            ) : (
              <Button
                variant="outline"
                loading={others.isPending}
                loadingText="Signing out..."
                onClick={() => setConfirmAll(true)}
              >
                <LogOut aria-hidden="true" />
                Sign out all other sessions
              </Button>
            )}
          </>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirmAll}
        onOpenChange={setConfirmAll}
        title="Sign out all other sessions?"
        description="Every device but this one is signed out and must sign in again."
        cancelLabel="Cancel"
        confirmLabel="Sign out others"
        onConfirm={signOutOthers}
        destructive
      />
    </Card>
  )
}
