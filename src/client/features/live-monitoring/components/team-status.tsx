import type { UseQueryResult } from '@tanstack/react-query'
import { PhoneCall, Users } from 'lucide-react'
import { Badge } from '@/client/components/ui/badge'
import { InlineLoadError } from '@/client/components/ui/inline-load-error'
import { Skeleton } from '@/client/components/ui/skeleton'
import { cn } from '@/client/lib/cn'
import { formatAgo } from '@/shared/dates'
import { type Presence, presenceLabels, presenceOf } from '@/shared/live-monitoring'
import { roleLabels } from '@/shared/roles'
import type { OnlineUser, OnlineUsersResponse } from '@/shared/schemas/live-monitoring'
import { formatTalk } from '../activity-text'
import { formatWhen } from '../when'

const dotColour: Record<Presence, string> = {
  green: 'bg-green-500',
  yellow: 'bg-yellow-400',
  orange: 'bg-orange-500',
  grey: 'bg-slate-400',
}

/** The presence dot with its word beside it (never colour alone). */
export function PresenceIndicator({ presence }: { presence: Presence }) {
  return (
    <span className="inline-flex items-center gap-1.5 text-sm text-slate-700">
      <span
        aria-hidden="true"
        className={cn('size-2.5 shrink-0 rounded-full', dotColour[presence])}
      />
      {presenceLabels[presence]}
    </span>
  )
}

function initials(m: OnlineUser): string {
  return `${m.user.firstName.charAt(0)}${m.user.lastName.charAt(0)}`.toUpperCase()
}

function MemberRow({
  member,
  now,
  timeZone,
}: {
  member: OnlineUser
  now: Date
  timeZone?: string
}) {
  const presence = presenceOf(member.lastActivity, member.isOnline, now)
  const name = `${member.user.firstName} ${member.user.lastName}`.trim()
  return (
    <li className="flex flex-wrap items-start gap-3 rounded-lg border border-slate-200 bg-white p-3">
      <span
        aria-hidden="true"
        className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-100 text-sm font-semibold text-brand-800"
      >
        {initials(member)}
      </span>
      <div className="min-w-0 flex-1">
        <p className="font-semibold text-slate-900">{name}</p>
        <p className="text-sm text-slate-600">{roleLabels[member.user.role]}</p>
        <p className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-600">
          <span>
            {member.lastActivity
              ? `Last activity ${formatAgo(member.lastActivity, now)}`
              : 'No activity yet'}
          </span>
          {member.loginTime ? (
            <span>Signed in {formatWhen(member.loginTime, now, timeZone)}</span>
          ) : null}
          {member.callsToday > 0 || member.talkSecondsToday > 0 ? (
            <span>
              {member.callsToday} {member.callsToday === 1 ? 'call' : 'calls'} today, talk time{' '}
              {formatTalk(member.talkSecondsToday)}
            </span>
          ) : null}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <PresenceIndicator presence={presence} />
        {member.onCall ? (
          <Badge variant="blue" className="gap-1">
            <PhoneCall className="size-3" aria-hidden="true" /> On a call
          </Badge>
        ) : null}
      </div>
    </li>
  )
}

/** Online members first (the server's order otherwise), so a push that changes one keeps it so. */
function onlineFirst(users: readonly OnlineUser[]): OnlineUser[] {
  return [...users].sort((a, b) => Number(b.isOnline) - Number(a.isOnline))
}

/** Spec section 2, Team Status: every member's presence, call, last activity and sign-in time. */
export function TeamStatus({
  query,
  now,
  timeZone,
}: {
  query: UseQueryResult<OnlineUsersResponse>
  now: Date
  timeZone?: string | undefined
}) {
  if (query.isPending)
    return (
      <div className="space-y-2" aria-busy="true" aria-label="Loading the team">
        <Skeleton className="h-20 w-full" />
        <Skeleton className="h-20 w-full" />
        <Skeleton className="h-20 w-full" />
      </div>
    )
  if (query.isError)
    return (
      <InlineLoadError
        message="The team could not be loaded."
        onRetry={() => void query.refetch()}
      />
    )
  if (query.data.users.length === 0)
    return (
      <div className="flex flex-col items-center gap-2 py-10 text-center text-slate-600">
        <Users className="size-10 text-slate-400" aria-hidden="true" />
        <p>No team members yet.</p>
      </div>
    )
  return (
    <ul aria-label="Team members" className="space-y-2">
      {onlineFirst(query.data.users).map((m) => (
        <MemberRow key={m.userId} member={m} now={now} timeZone={timeZone} />
      ))}
    </ul>
  )
}
