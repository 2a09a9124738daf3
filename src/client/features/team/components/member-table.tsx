import { KeyRound, UserMinus } from 'lucide-react'
import { Badge } from '@/client/components/ui/badge'
import { Button } from '@/client/components/ui/button'
import { NativeSelect } from '@/client/components/ui/input'
import { useCan, useUser } from '@/client/lib/current-user'
import { formatAgo, formatDate } from '@/shared/dates'
import { roleLabels, type StaffRole, staffRoles } from '@/shared/roles'
import type { TeamMember } from '@/shared/schemas/team'

const th = 'px-3 py-2 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase'
const cell = 'px-3 py-2 align-middle'

/**
 * The team (spec's user table: User, Email, Role, Status, Joined, Actions). Columns drop out
 * as the card narrows (container queries), the email moving under the name: nothing scrolls
 * sideways at 360 px.
 */
export function MemberTable({
  members,
  busyId,
  onRole,
  onStatus,
  onRemove,
  onResetLink,
}: {
  members: TeamMember[]
  busyId: string | null
  onRole: (m: TeamMember, role: StaffRole) => void
  onStatus: (m: TeamMember) => void
  onRemove: (m: TeamMember) => void
  /** Emails the member a password reset link (issue 40, item 7); not for yourself. */
  onResetLink: (m: TeamMember) => void
}) {
  const timeZone = useUser().data?.timeZone
  // A support visit may not send reset links (the server refuses it too).
  const canReset = useCan('team:reset-password')
  return (
    <div className="@container rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="w-full table-fixed border-collapse text-sm">
        <caption className="sr-only">Team members</caption>
        <thead className="border-b border-slate-200 bg-slate-50">
          <tr>
            <th scope="col" className={th}>
              User
            </th>
            <th scope="col" className={`${th} hidden @3xl:table-cell`}>
              Email
            </th>
            <th scope="col" className={`${th} w-36`}>
              Role
            </th>
            <th scope="col" className={`${th} hidden w-28 @xl:table-cell`}>
              Status
            </th>
            <th scope="col" className={`${th} hidden w-32 @4xl:table-cell`}>
              Joined
            </th>
            <th scope="col" className={`${th} w-28 @xl:w-40`}>
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {members.map((m) => {
            const suspended = m.status === 'suspended'
            return (
              <tr key={m.id} data-testid="member-row">
                <td className={`${cell} min-w-0`}>
                  <p className="truncate font-medium text-slate-900" title={m.name}>
                    {m.name}
                    {m.isYou ? <span className="font-normal text-slate-600"> (you)</span> : null}
                  </p>
                  <p className="truncate text-xs text-slate-600 @3xl:hidden" title={m.email}>
                    {m.email}
                  </p>
                  <p className="text-xs text-slate-600 @xl:hidden">
                    {suspended ? 'Suspended' : 'Active'}
                  </p>
                  <p className="hidden text-xs text-slate-600 @xl:block">
                    {m.lastSignInAt
                      ? `Last sign-in ${formatAgo(m.lastSignInAt)}`
                      : 'Never signed in'}
                  </p>
                </td>
                <td
                  className={`${cell} hidden truncate text-slate-700 @3xl:table-cell`}
                  title={m.email}
                >
                  {m.email}
                </td>
                <td className={cell}>
                  <NativeSelect
                    aria-label={`Role of ${m.name}`}
                    value={m.role}
                    disabled={busyId === m.id}
                    onChange={(e) => onRole(m, e.target.value as StaffRole)}
                    className="h-8 text-sm"
                  >
                    {staffRoles.map((r) => (
                      <option key={r} value={r}>
                        {roleLabels[r]}
                      </option>
                    ))}
                  </NativeSelect>
                </td>
                <td className={`${cell} hidden @xl:table-cell`}>
                  <Badge variant={suspended ? 'destructive' : 'green'}>
                    {suspended ? 'Suspended' : 'Active'}
                  </Badge>
                </td>
                <td className={`${cell} hidden text-slate-700 @4xl:table-cell`}>
                  {formatDate(m.joinedAt, timeZone)}
                </td>
                <td className={cell}>
                  <div className="flex flex-wrap items-center justify-end gap-1">
                    <Button
                      size="sm"
                      variant={suspended ? 'default' : 'outline'}
                      loading={busyId === m.id}
                      onClick={() => onStatus(m)}
                      aria-label={`${suspended ? 'Activate' : 'Suspend'} ${m.name}`}
                    >
                      {suspended ? 'Activate' : 'Suspend'}
                    </Button>
                    {m.isYou || !canReset ? null : (
                      <Button
                        size="icon"
                        variant="ghost"
                        className="size-8"
                        disabled={suspended || busyId === m.id}
                        onClick={() => onResetLink(m)}
                        aria-label={`Send ${m.name} a password reset link`}
                        title={
                          suspended
                            ? 'Activate the member before sending a password reset link'
                            : 'Send a password reset link'
                        }
                      >
                        <KeyRound aria-hidden="true" />
                      </Button>
                    )}
                    <Button
                      size="icon"
                      variant="ghost"
                      className="size-8 text-red-700 hover:bg-red-50"
                      onClick={() => onRemove(m)}
                      aria-label={`Remove ${m.name}`}
                      title="Remove from the team"
                    >
                      <UserMinus aria-hidden="true" />
                    </Button>
                  </div>
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
